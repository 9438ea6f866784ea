import Foundation
import RoteModel
import TestSupport
import Testing

@testable import RoteStore

@Suite struct LibraryIndexTests {
    func index(_ overrides: [String: String] = [:]) async throws -> LibraryIndex {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory, overrides: overrides)
        return LibraryIndex(library: try LibraryLoader().load(directory.url), user: "ana")
    }

    @Test func everyFormFindsItsLemma() async throws {
        let index = try await index()
        for form in ["run", "runs", "ran", "running", "Running,", "RAN."] {
            #expect(index.lemmas(of: form).map(\.id) == ["words/run"], "\(form)")
        }
        #expect(index.lemmas(of: "went").map(\.id) == ["words/go"])
        #expect(index.lemmas(of: "swim").isEmpty)
        #expect(index.lookUp("Went,")?.lemma.id == "words/go")
        #expect(index.lookUp("swim") == nil)
    }

    @Test func rankOrderAndStudyOrder() async throws {
        let index = try await index()
        #expect(index.rankOrder == ["words/go", "words/run"])
        #expect(index.ids(inDeck: "words") == ["words/go", "words/run"])
        #expect(index.ids(inDeck: "maths").count == 2)
        #expect(index.orderedIDs.first == "words/go", "decks in rote.yaml's order, entries by rank")
    }

    @Test func statusPerEntry() async throws {
        let index = try await index([
            "profiles/ana/progress/words/go.yaml":
                "entry: words/go\nstatus: suspended\nstatus_at: 2026-11-03T09:00:00Z\n",
            "profiles/ana/profile.yaml": "user: ana\nignored_words: [Jesus]\n",
        ])
        #expect(index.status(of: "words/run") == .review)
        #expect(index.status(of: "words/go") == .suspended)
        #expect(index.status(of: "verses/joh-11-35") == .new)
        let ignoring = try await self.index(["profiles/ana/profile.yaml": "user: ana\nignored_words: [Run]\n"])
        #expect(ignoring.status(of: "words/run") == .ignored)
    }

    @Test func initCommitsAValidLibrary() async throws {
        let directory = TemporaryDirectory()
        let root = directory.url.appending(path: "lib")
        try LibraryCreator(user: "ana", now: Date(timeIntervalSince1970: 1_795_255_200)).create(at: root)
        let library = try LibraryLoader().load(root)
        #expect(library.errors.isEmpty, "\(library.errors)")
        #expect(library.profiles["ana"] != nil)
        #expect(library.manifest?.defaultUser == "ana")
        #expect(library.deckOrder == ["english-a1", "kjv", "red-letter", "alphabet", "math"])
        #expect(library.entries.count > 250)
        #expect(await Shell.run("git", ["status", "--porcelain"], in: root).stdout.isEmpty)
        #expect(await Shell.run("git", ["fsck"], in: root).status == 0)
        #expect(throws: LibraryError.self) { try LibraryCreator(user: "ana").create(at: root) }
    }
}

@Suite struct MergeRulesTests {
    @Test func theTrackedAttributesAreTheTable() {
        #expect(MergeRules.gitAttributes.contains("profiles/*/letters/** merge=rote-letters\n"))
        #expect(
            MergeRules.gitAttributes.split(separator: "\n").filter { !$0.hasPrefix("#") }.count
                == MergeRules.rules.count)
        #expect(MergeRules.kind(forPath: "profiles/ana/letters/alphabet/a.yaml") == "letters")
        #expect(MergeRules.kind(forPath: "profiles/ana/letters") == nil)
        #expect(MergeRules.kind(forPath: "profiles/ana/profile.yaml") == "profile")
        #expect(MergeRules.kind(forPath: "corpus/english-a1/run.yaml") == "entry")
        #expect(MergeRules.kind(forPath: "corpus") == nil)
        #expect(MergeRules.kind(forPath: "rote.yaml") == nil)
    }

    @Test func infoAttributesGetTheWholeTableAndKeepOtherLines() throws {
        let directory = TemporaryDirectory()
        let git = directory.url
        directory.write(
            "info/attributes",
            "*.png binary\n# Rote's merge rules: written by `rote setup-git` and `rote sync` from the current Rote; do not edit.\nprofiles/*/progress/** merge=rote-progress\n# End of Rote's merge rules.\n*.pdf -diff\n"
        )
        #expect(try MergeRules.installInfoAttributes(gitDirectory: git))
        let text = try #require(directory.read("info/attributes"))
        #expect(text.hasPrefix("*.png binary\n*.pdf -diff\n# Rote's merge rules"), "\(text)")
        for rule in MergeRules.rules {
            #expect(text.components(separatedBy: rule.line + "\n").count == 2, "\(rule.line) once")
        }
        #expect(try MergeRules.installInfoAttributes(gitDirectory: git) == false, "unchanged the second time")
        let fresh = TemporaryDirectory()
        #expect(try MergeRules.installInfoAttributes(gitDirectory: fresh.url))
        #expect(fresh.read("info/attributes") == MergeRules.infoAttributesBlock)
    }

    /// Lower-case words skip the character-set trim; on any token the answer must be the one
    /// the trim gives.
    @Test func normalizingAPlainWordAgreesWithTheFullRule() {
        let full = { (token: String) in
            token.lowercased().trimmingCharacters(
                in: CharacterSet.punctuationCharacters.union(.whitespaces).union(.symbols))
        }
        var state: UInt64 = 3
        let alphabet = Array("abcz'-Z ,.é")
        for _ in 0..<5_000 {
            var token = ""
            for _ in 0..<(Int(state % 7)) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                token.append(alphabet[Int((state >> 33) % UInt64(alphabet.count))])
            }
            state = state &* 6_364_136_223_846_793_005 &+ 1
            #expect(LibraryIndex.normalize(token) == full(token), "\(token.debugDescription)")
        }
        for token in ["ran", "Ran,", "don't", "'quoted'", "-dash", "well-known", "naïve", "مرحبا", ""] {
            #expect(LibraryIndex.normalize(token) == full(token), "\(token)")
        }
    }
}
