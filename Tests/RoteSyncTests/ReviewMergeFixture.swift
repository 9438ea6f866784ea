import Foundation
import RoteModel
import Scheduling
import Testing

@testable import RoteSync

/// Progress files of one entry written line by line, merged both ways round: what the tests of
/// each review mark (synthetic, practice, undone) share.
enum ReviewMergeFixture {
    struct MergeFailed: Error {}

    /// A progress file of `entry` holding `reviews`, one flow mapping a line.
    static func file(entry: String, _ reviews: [String]) -> Data {
        Data(("entry: \(entry)\nstatus: active\nreviews:\n" + reviews.map { "  - " + $0 + "\n" }.joined()).utf8)
    }

    /// The merge of `ours` and `theirs`, checked to be the same with the sides swapped.
    static func mergedBothWays(base: Data?, _ ours: Data, _ theirs: Data) throws -> ProgressFile {
        let forward = ProgressMerge.merge(base: base, ours: ours, theirs: theirs, settings: .default)
        let backward = ProgressMerge.merge(base: base, ours: theirs, theirs: ours, settings: .default)
        #expect(forward == backward, "the merge does not depend on which side is ours")
        guard case let .merged(data) = forward else { throw MergeFailed() }
        return try #require(ProgressFile.decode(data, path: "p.yaml").0)
    }
}
