import Foundation
import RoteModel
import Testing

@testable import RoteStore

/// `classify` reads the two common shapes of path from their bytes; it must give what the
/// full rules give, or leave the path to them.
@Suite struct LibraryFileTests {
    static let paths = [
        "corpus/english-a1/run.yaml", "corpus/english-a1/deck.yaml", "corpus/kjv/joh-8-32.yaml",
        "corpus/math/algebra/domain.yaml",
        "corpus/math/algebra/linear/skill.yaml", "corpus/math/algebra/linear/q1.yaml", "corpus/x.yaml",
        "corpus//run.yaml",
        "corpus/English/run.yaml", "corpus/english-a1/Run.yaml", "corpus/english-a1/.yaml", "corpus/english-a1/run.yml",
        "corpus/english-a1/a..b.yaml", "corpus/english-a1/-run.yaml", "corpus/english-a1/run.yaml.yaml",
        "corpus/deck/deck.yaml",
        "profiles/ana/profile.yaml", "profiles/ana/progress/english-a1/run.yaml",
        "profiles/ana/progress/math/algebra/linear/q1.yaml",
        "profiles/ana/progress/english-a1/Run.yaml", "profiles/Ana/progress/english-a1/run.yaml",
        "profiles/ana/progress/run.yaml",
        "profiles/ana/sessions/2026-11-21.yaml", "profiles/ana/letters/arabic/alif.yaml", "profiles/ana/saved/x.yaml",
        "profiles/ana/progres/english-a1/run.yaml", "profiles/ana/progress/english-a1/run", "rote.yaml",
        "notes/run.yaml",
        "corpus/english-a1/rün.yaml", "profiles/ana/progress/english-a1/ru n.yaml", "corpus/english-a1/run.yaml/",
    ]

    @Test func commonShapesReadAsTheFullRulesReadThem() {
        var shortened = 0
        for path in Self.paths {
            guard let common = LibraryFile.classifyCommon(path) else { continue }
            shortened += 1
            #expect(LibraryFile.classifyInFull(path) == .success(common), "\(path)")
        }
        #expect(shortened >= 4)
        // And the answers overall are the full rules' answers.
        for path in Self.paths {
            #expect(LibraryFile.classify(path) == LibraryFile.classifyInFull(path), "\(path)")
        }
    }
}
