package import Foundation
import RoteModel

/// The merge driver for `profiles/*/letters/**`: two devices' tracing attempts at one letter.
///
/// Attempts are a grow-only set like reviews: the merge is their union by id (an attempt
/// without an id — written by hand — is keyed by its whole line), kept in
/// `LetterAttempt.fileOrder`. Mastery and unlocks are derived from the attempts, so nothing
/// else needs merging. Commutative, associative and idempotent; a side that does not read
/// cleanly is a conflict rather than a partial union.
package enum LetterAttemptsMerge {
    package static func merge(ours: Data, theirs: Data, path: String = "letters.yaml") -> MergeOutcome {
        let result = LetterAttemptsFile.decodeForMerge(ours, side: .ours, path: path).flatMap { ours in
            LetterAttemptsFile.decodeForMerge(theirs, side: .theirs, path: path).flatMap {
                theirs -> Result<String, MergeRefusal> in
                guard ours.letter == theirs.letter else {
                    return .failure(
                        MergeRefusal(
                            "\(path): ours holds attempts at '\(ours.letter)' but theirs at '\(theirs.letter)'; keep the right one by hand"
                        ))
                }
                return .success(
                    LetterAttemptsFile(letter: ours.letter, attempts: union(ours.attempts, theirs.attempts)).render())
            }
        }
        return MergeOutcome(result)
    }

    /// One attempt per key; of two copies with one key the one whose line sorts first stays,
    /// a choice that does not depend on the side.
    static func union(_ ours: [LetterAttempt], _ theirs: [LetterAttempt]) -> [LetterAttempt] {
        var byKey: [String: (line: String, attempt: LetterAttempt)] = [:]
        for attempt in ours + theirs {
            let line = attempt.yamlValue.inline()
            let key = attempt.id ?? line
            if let kept = byKey[key], kept.line <= line { continue }
            byKey[key] = (line, attempt)
        }
        // Ties in file order are broken by the line, so the result never depends on hashing.
        return byKey.values.sorted { lhs, rhs in
            if LetterAttempt.fileOrder(lhs.attempt, rhs.attempt) { return true }
            if LetterAttempt.fileOrder(rhs.attempt, lhs.attempt) { return false }
            return lhs.line < rhs.line
        }.map(\.attempt)
    }
}
