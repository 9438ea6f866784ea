package import Foundation

/// The merge driver for `profiles/*/sessions/**` and `profiles/*/saved/**`.
///
/// These files are written once under unique names (a session id, a saved item's id), so two
/// devices never write the same path and git keeps both devices' files without asking a
/// driver. The driver runs only when one path got two contents, which Rote never does — a
/// hand edit or a copied file can. Then:
///
/// - if only one side changed the file from the base, that side is taken, as git would;
/// - if both changed it differently (or both added it), the byte-wise smaller content is
///   kept. Neither content is more right than the other, so the rule only has to be the same
///   on every device: a minimum does not depend on which side is "ours" nor on the order in
///   which several devices merge, so all of them end with the same bytes.
///
/// Never a conflict: the file is not parsed, and a session that lost this choice is still in
/// git's history.
package enum ImmutableMerge {
    /// Merges three versions of one write-once file.
    package static func merge(base: Data?, ours: Data, theirs: Data) -> MergeOutcome {
        if ours == theirs || theirs == base { return .merged(ours) }
        if ours == base { return .merged(theirs) }
        return .merged(ours.lexicographicallyPrecedes(theirs) ? ours : theirs)
    }
}
