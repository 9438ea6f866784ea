package import Foundation
import RoteModel
import RoteStore
package import Scheduling

/// What a merge driver produced for one file: the merged bytes, or why it could not merge.
///
/// A conflict is never a silent loss: the caller (`rote merge-driver`, or `rote sync` in
/// process) leaves both versions to git and reports the reason, so no review or setting is
/// dropped because a file could not be read.
package enum MergeOutcome: Sendable, Equatable {
    /// The merged file, in Rote's canonical form.
    case merged(Data)
    /// The file could not be merged; the text says which side and why, for the learner.
    case conflict(String)
}

/// Which of Rote's merge drivers serves a library path.
///
/// The raw values are the `<kind>` of `rote merge-driver <kind> %O %A %B %P`; `.gitattributes`
/// names the drivers `rote-<kind>`; which paths take which is `MergeRules.rules`.
package enum MergeKind: String, Sendable, Hashable, CaseIterable {
    /// `profiles/*/progress/**`: review union, status last-writer-wins, state replayed.
    case progress
    /// `profiles/*/profile.yaml`: key-wise three-way merge.
    case profile
    /// `profiles/*/sessions/**` and `profiles/*/saved/**`: write-once files.
    case immutable
    /// `profiles/*/letters/**`: tracing attempts, a union by id.
    case letters
    /// `corpus/**`: entries and deck files, merged line by line, else field by field
    /// (`EntryMerge`).
    case entry

    /// The driver for a path relative to the library root, or nil for paths git merges line
    /// by line itself (corpus, manifests and anything else): the rule `MergeRules` (the table
    /// `.gitattributes` and `.git/info/attributes` are written from) gives the path.
    package static func forPath(_ path: String) -> MergeKind? {
        MergeRules.kind(forPath: path).flatMap(MergeKind.init(rawValue:))
    }
}

/// The one entry point for Rote's merge drivers: picks the semantic merge for a file kind.
///
/// Every function behind it is pure — bytes in, bytes out, no clock, no randomness, no file
/// system — so `rote merge-driver` (git's `%O %A %B %P`) and `rote sync` (libgit2 in
/// process) merge identically, and tests can hold the properties sync relies on:
/// merge(a, b) = merge(b, a) byte for byte, merging twice changes nothing, and no review is
/// ever lost.
package enum SemanticMerge {
    /// Merges the three versions of the file at `path`.
    ///
    /// - Parameters:
    ///   - base: the common ancestor's bytes, or nil when both sides added the file.
    ///   - path: the file's path in the library, used in diagnostics and conflict reasons.
    ///   - settings: the scheduler settings the learner's progress is replayed with (used by
    ///     `.progress` only; the deck's and profile's choices, resolved by the caller).
    package static func merge(
        kind: MergeKind, base: Data?, ours: Data, theirs: Data, path: String, settings: SchedulerSettings
    ) -> MergeOutcome {
        switch kind {
        case .progress: ProgressMerge.merge(base: base, ours: ours, theirs: theirs, settings: settings, path: path)
        case .profile: ProfileMerge.merge(base: base, ours: ours, theirs: theirs, path: path)
        case .immutable: ImmutableMerge.merge(base: base, ours: ours, theirs: theirs)
        case .letters: LetterAttemptsMerge.merge(ours: ours, theirs: theirs, path: path)
        case .entry: EntryMerge.merge(base: base, ours: ours, theirs: theirs, path: path)
        }
    }
}

/// Which version of a file a value came from, for messages and tie-breaks.
enum MergeSide: String, Sendable {
    case ours, theirs
}

extension YAMLCodable {
    /// Decodes one side of a merge, or says why it cannot be merged.
    ///
    /// A file with any *error* diagnostic is refused, not just one that fails to decode:
    /// decoding skips a bad field or a bad review line and carries on, and merging that
    /// partial value would write the file back without the skipped part — a review lost for
    /// good. Warnings (an unknown key, a repeated review id) do not lose anything the merge
    /// needs, so they do not stop it.
    static func decodeForMerge(_ data: Data, side: MergeSide, path: String) -> Result<Self, MergeRefusal> {
        let (value, diagnostics) = decode(data, path: path)
        let firstError = diagnostics.first { $0.severity == .error }
        guard let value, firstError == nil else {
            let why = firstError.map { "\($0)" } ?? "\(path): cannot be read"
            return .failure(MergeRefusal("\(side.rawValue) version of \(path) cannot be merged: \(why)"))
        }
        return .success(value)
    }
}

/// Orders optionals with nil first: a missing time is older than any time, a missing
/// value sorts before any value.
func isBefore<Value: Comparable>(_ lhs: Value?, _ rhs: Value?) -> Bool {
    switch (lhs, rhs) {
    case let (lhs?, rhs?): lhs < rhs
    case (nil, _?): true
    case (_, nil): false
    }
}

/// Why a merge was refused; becomes `MergeOutcome.conflict`.
struct MergeRefusal: Error, Sendable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

extension MergeOutcome {
    /// The outcome for a canonical text, or for a refusal.
    init(_ result: Result<String, MergeRefusal>) {
        switch result {
        case .success(let text): self = .merged(Data(text.utf8))
        case .failure(let refusal): self = .conflict(refusal.reason)
        }
    }
}
