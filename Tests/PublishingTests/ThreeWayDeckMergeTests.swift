import Foundation
import Testing

@testable import Publishing

/// The file-by-file rules of `rote deck update`'s merge, on small folders.
@Suite struct ThreeWayDeckMergeTests {
    func data(_ text: String) -> Data { Data(text.utf8) }

    @Test func oneSidedChangesTakeThatSide() {
        let base = ["a.yaml": data("a\n"), "b.yaml": data("b\n"), "gone.yaml": data("g\n")]
        let ours = [
            "a.yaml": data("a mine\n"), "b.yaml": data("b\n"), "gone.yaml": data("g\n"), "mine.yaml": data("m\n"),
        ]
        let theirs = ["a.yaml": data("a\n"), "b.yaml": data("b theirs\n"), "new.yaml": data("n\n")]
        let result = ThreeWayDeckMerge.merge(base: base, ours: ours, theirs: theirs, prefer: .none)
        #expect(result.conflicts.isEmpty)
        #expect(
            result.files == [
                "a.yaml": data("a mine\n"), "b.yaml": data("b theirs\n"), "mine.yaml": data("m\n"),
                "new.yaml": data("n\n"),
            ])
        #expect(result.taken == ["b.yaml", "gone.yaml", "new.yaml"])
        #expect(result.keptLocal == ["a.yaml", "mine.yaml"])
    }

    @Test func removedOnOneSideAndChangedOnTheOtherIsAConflictUnlessPreferred() {
        let base = ["x.yaml": data("x\n"), "y.yaml": data("y\n")]
        let ours = ["x.yaml": data("x mine\n")]
        let theirs = ["y.yaml": data("y theirs\n")]
        let refused = ThreeWayDeckMerge.merge(base: base, ours: ours, theirs: theirs, prefer: .none)
        #expect(
            refused.conflicts == [
                .init(path: "x.yaml", line: 1, message: "the publisher removed this file, which you edited"),
                .init(path: "y.yaml", line: 1, message: "you removed this file, which the publisher changed"),
            ])
        #expect(
            ThreeWayDeckMerge.merge(base: base, ours: ours, theirs: theirs, prefer: .mine).files == [
                "x.yaml": data("x mine\n")
            ])
        #expect(
            ThreeWayDeckMerge.merge(base: base, ours: ours, theirs: theirs, prefer: .theirs).files == [
                "y.yaml": data("y theirs\n")
            ])
    }

    @Test func binaryFilesChangedOnBothSidesConflict() {
        let base = ["audio.mp3": Data([0, 1, 2])]
        let result = ThreeWayDeckMerge.merge(
            base: base, ours: ["audio.mp3": Data([0, 1, 3])], theirs: ["audio.mp3": Data([0, 1, 4])], prefer: .none)
        #expect(result.conflicts.map(\.message) == ["a binary file changed both here and by the publisher"])
    }

    @Test func conflictLinesCountYourFileOnly() {
        let merged = data(
            "one\n<<<<<<< yours\nmine\n=======\ntheirs\nmore theirs\n>>>>>>> publisher\nthree\nfour\n<<<<<<< yours\nm2\n=======\nt2\n>>>>>>> publisher\n"
        )
        #expect(ThreeWayDeckMerge.markerLines(merged) == [2, 5])
    }
}
