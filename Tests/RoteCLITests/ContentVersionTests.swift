import Foundation
import RoteStore
import TestSupport
import Testing

/// Seed 003's content versions: a deck whose version changes runs its upgrade rule for each
/// learner on their next study or review, and the version seen is recorded in the profile.
@Suite struct ContentVersionTests {
    static var binary: String { Checkout.productsDirectory.appending(path: "rote").path }

    func rote(_ arguments: [String], in directory: URL) async -> Shell.Output {
        await Shell.run(Self.binary, arguments, in: directory, environment: ["ROTE_USER": "tester"])
    }

    /// The system git, expected to succeed: a fixture step that failed would fail the test
    /// for the wrong reason.
    @discardableResult
    func git(_ arguments: [String], in directory: URL) async -> Shell.Output {
        let output = await Shell.run(
            "git", ["-c", "user.name=Author", "-c", "user.email=a@example.invalid"] + arguments, in: directory)
        #expect(output.status == 0, "git \(arguments.joined(separator: " ")): \(output.stderr)")
        return output
    }

    @Test func aNewAlphabetVersionGivesNewLettersDefaultMasteryAndReportsRemovedOnes() async throws {
        let directory = TemporaryDirectory()
        #expect(await rote(["init", "lib"], in: directory.url).status == 0)
        let lib = directory.url.appending(path: "lib")
        let profilePath = lib.appending(path: "profiles/tester/profile.yaml").path
        let created = try String(contentsOfFile: profilePath, encoding: .utf8)
        #expect(
            created.contains("deck_versions:\n  alphabet: 1.1.0\n"),
            "a new learner has seen the starter decks' versions:\n\(created)")

        // The learner has history with z; then the author ships alphabet 1.2.0 with æ added
        // and z removed.
        #expect(await rote(["-C", lib.path, "review", "alphabet/z", "good"], in: directory.url).status == 0)
        let deckPath = lib.appending(path: "corpus/alphabet/deck.yaml")
        try String(contentsOf: deckPath, encoding: .utf8).replacingOccurrences(
            of: "version: 1.1.0", with: "version: 1.2.0"
        )
        .write(to: deckPath, atomically: true, encoding: .utf8)
        try "glyph: latin-small-ae\ncharacter: æ\nname: small ae\norder: 53\nstrokes:\n  - [[30, 40], [70, 80]]\n"
            .write(to: lib.appending(path: "corpus/alphabet/ae.yaml"), atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: lib.appending(path: "corpus/alphabet/z.yaml"))
        await git(["add", "-A"], in: lib)
        await git(["commit", "-qm", "Alphabet 1.2.0"], in: lib)

        let reviewed = await rote(["-C", lib.path, "review", "english-a1/run", "good"], in: directory.url)
        #expect(reviewed.status == 0, "\(reviewed.stderr)")
        #expect(reviewed.stderr.contains("alphabet: version 1.1.0 → 1.2.0"), "\(reviewed.stderr)")
        #expect(
            reviewed.stderr.contains("1 new letter with default mastery (not practised, no passes yet): ae"),
            "\(reviewed.stderr)")
        #expect(reviewed.stderr.contains("1 letter removed: z; your history for z is kept"), "\(reviewed.stderr)")
        let profile = try String(contentsOfFile: profilePath, encoding: .utf8)
        #expect(profile.contains("  alphabet: 1.2.0\n"), "\(profile)")
        let subjects = await git(["log", "-2", "--format=%s"], in: lib).stdout
        #expect(subjects.contains("Content: alphabet 1.1.0 → 1.2.0 for tester"), "\(subjects)")
        #expect(
            FileManager.default.fileExists(
                atPath: lib.appending(path: "profiles/tester/progress/alphabet/z.yaml").path),
            "history is never deleted")
        #expect(await git(["status", "--porcelain"], in: lib).stdout.isEmpty)

        // Once recorded, the upgrade does not run again.
        let again = await rote(["-C", lib.path, "review", "english-a1/go", "good"], in: directory.url)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("alphabet: version"), "\(again.stderr)")
    }

    @Test func pendingUpgradesAreWorkedOutFromHistoryAndFirstSightsOnlyRecorded() async throws {
        let library = TemporaryDirectory()
        await FixtureLibrary.write(into: library)
        // ana has no deck_versions: every deck is a first sighting, none an upgrade.
        let loaded = try LibraryLoader().load(library.url)
        let pending = ContentVersions.pending(loaded, user: "ana")
        #expect(pending.map(\.deck) == ["words", "verses", "letters", "maths"])
        #expect(pending.allSatisfy { !$0.isUpgrade })

        library.write("profiles/ana/profile.yaml", "user: ana\ndeck_versions: {letters: 1.0.0, words: 0.9.0}\n")
        let changed = try LibraryLoader().load(library.url)
        let upgrades = ContentVersions.pending(changed, user: "ana").filter(\.isUpgrade)
        #expect(upgrades.count == 1)
        #expect(upgrades.first?.deck == "words")
        #expect(upgrades.first?.added == nil, "0.9.0 is not in the history, so what changed is unknown")
    }
}
