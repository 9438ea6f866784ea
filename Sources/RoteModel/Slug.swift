import Foundation

/// Entry ids and the path segments they are made of.
package enum Slug {
    /// The longest name, in bytes, of a file or folder Rote makes from a name it is given: an
    /// entry's (each `/`-separated part of its id), a deck's, a learner's. Most file systems
    /// refuse a name over 255 bytes, and Rote adds to what it is given: `.yaml` to an entry's
    /// and a progress file's name, and while it writes, a temporary file beside the file,
    /// `.<name>.yaml.<pid>.<random>.tmp`, up to 32 bytes more; a learner's launch index is
    /// `launch-<learner>.index`. 200 leaves room for all of them.
    package static let maximumNameBytes = 200

    /// What is wrong when a part of `id` is longer than `maximumNameBytes`, worded for a person
    /// (`what` says where the name came from: "the word"); nil when every part fits.
    package static func lengthProblem(_ id: some StringProtocol, from what: String) -> String? {
        guard let longest = id.split(separator: "/").map(\.utf8.count).max(), longest > maximumNameBytes else {
            return nil
        }
        return
            "\(what) makes a file name of \(longest) bytes; the limit is \(maximumNameBytes) (file systems allow 255 bytes, and Rote adds .yaml and, while it writes, a temporary suffix)"
    }

    /// A path segment: `^[a-z0-9][a-z0-9_.-]*$` and not `.`/`..`-like — it can never escape
    /// its folder — of at most `maximumNameBytes`.
    package static func isValidSegment(_ text: some StringProtocol) -> Bool {
        isValidSegment(String(text))
    }

    /// `isValidSegment` of a string's bytes in place: a library of 150 000 files checks half
    /// a million segments at every full load.
    package static func isValidSegment(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isValidSegment)
    }

    package static func isValidSegment(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = text.first, isLowerAlnum(first), text.count <= maximumNameBytes else { return false }
        var previous = first
        for byte in text.dropFirst() {
            guard
                isLowerAlnum(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".")
            else { return false }
            if byte == UInt8(ascii: "."), previous == UInt8(ascii: ".") { return false }
            previous = byte
        }
        return true
    }

    /// The skills seed's stricter slug: `^[a-z0-9_]+$`.
    package static func isValidSkillSlug(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { isLowerAlnum($0) || $0 == UInt8(ascii: "_") }
    }

    /// A user name usable as a folder: a valid segment.
    package static func isValidUser(_ text: some StringProtocol) -> Bool { isValidSegment(text) }

    /// Lower-cases and replaces anything outside the segment alphabet with `-`, e.g. a login
    /// name `Jane Doe` → `jane-doe`. Empty input gives `learner`.
    package static func make(from text: String) -> String {
        var out = ""
        for scalar in text.lowercased().unicodeScalars {
            if scalar.isASCII, isLowerAlnum(UInt8(scalar.value)) || scalar == "_" || scalar == "." {
                out.unicodeScalars.append(scalar)
            } else if !out.hasSuffix("-") {
                out += "-"
            }
        }
        while let first = out.first, !first.isLetter && !first.isNumber { out.removeFirst() }
        while out.hasSuffix("-") || out.hasSuffix(".") { out.removeLast() }
        while out.contains("..") { out = out.replacingOccurrences(of: "..", with: ".") }
        return out.isEmpty ? "learner" : out
    }

    /// True when every `/`-separated segment of an entry id is valid.
    package static func isValidEntryID(_ id: some StringProtocol) -> Bool {
        let segments = id.split(separator: "/", omittingEmptySubsequences: false)
        return segments.count >= 2 && segments.allSatisfy { isValidSegment($0) }
    }

    private static func isLowerAlnum(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}
