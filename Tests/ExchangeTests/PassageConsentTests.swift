import Foundation
import Git
import RoteModel
import RoteSync
import TestSupport
import Testing

@testable import Exchange
@testable import RoteStore

/// `rote consent withdraw`: the learner's passage practice erased in one commit that sync
/// honours, other decks untouched, and history purged on request.
@Suite(.serialized) struct PassageConsentTests {
    static let grantedProfile = """
        user: ana
        created_at: 2026-11-01T09:00:00Z
        updated_at: 2026-11-01T09:00:00Z
        consent:
          passages: {granted: true, at: 2026-11-01T09:00:00Z, version: "1"}

        """
    static let verseProgress = """
        entry: verses/joh-11-35
        status: active
        ladder: {level: review, attempts: 9, at: 2026-11-02T09:00:30Z}
        reflection: {text: A private thought., at: 2026-11-02T09:00:20Z}
        reviews:
          - {id: v1, at: 2026-11-02T09:01:00Z, grade: good, ms: 9000, device: dev-aaaaaaaaaaaa}

        """
    /// One session that studied a word and the verse: the withdrawal keeps its word half.
    static let mixedSession = """
        id: s-mixed
        user: ana
        device: dev-aaaaaaaaaaaa
        kind: mixed
        started_at: 2026-11-02T09:00:00Z
        ended_at: 2026-11-02T09:02:00Z
        decks: [words, verses]
        counts: {again: 0, hard: 1, good: 1, easy: 0, new: 1}
        attempts:
          - {entry: words/run, question: translate, answer: يجري, correct: true, at: 2026-11-02T09:00:10Z, ms: 3000}
          - {entry: verses/joh-11-35, question: recite, answer: Jesus wept., correct: true, at: 2026-11-02T09:01:00Z, ms: 9000}

        """
    static let passageSession = """
        id: s-verse
        user: ana
        device: dev-aaaaaaaaaaaa
        kind: review
        started_at: 2026-11-03T09:00:00Z
        ended_at: 2026-11-03T09:01:00Z
        decks: [verses]
        counts: {again: 0, hard: 0, good: 1, easy: 0, new: 0}
        attempts:
          - {entry: verses/joh-11-35, question: recall, answer: Jesus wept., correct: true, at: 2026-11-03T09:00:30Z, ms: 8000}

        """

    let directory = TemporaryDirectory("rote-consent")
    var root: URL { directory.url }

    init() async {
        await FixtureLibrary.write(
            into: directory,
            overrides: [
                "profiles/ana/profile.yaml": Self.grantedProfile,
                "profiles/ana/progress/verses/joh-11-35.yaml": Self.verseProgress,
                "profiles/ana/sessions/2026/11/s-mixed.yaml": Self.mixedSession,
                "profiles/ana/sessions/2026/11/s-verse.yaml": Self.passageSession,
            ])
    }

    @Test func withdrawingErasesPassagePracticeAndKeepsTheRest() async throws {
        let git = try LibraryTransaction(root: root, user: "ana", purpose: "test")
        let result = try PassageConsent.withdraw(user: "ana", git: git, now: Date(timeIntervalSince1970: 1_780_000_000))
        #expect(
            result.deleted == [
                "profiles/ana/progress/verses/joh-11-35.yaml", "profiles/ana/sessions/2026/11/s-verse.yaml",
            ])
        #expect(result.rewritten == ["profiles/ana/sessions/2026/11/s-mixed.yaml"])
        #expect(directory.read("profiles/ana/progress/verses/joh-11-35.yaml") == nil)
        #expect(directory.read("profiles/ana/progress/words/run.yaml") != nil, "other decks are unaffected")
        let mixedText = try #require(directory.read("profiles/ana/sessions/2026/11/s-mixed.yaml"))
        let mixed = try #require(SessionFile.decode(mixedText, path: "s").0)
        #expect(mixed.attempts.map(\.entry) == ["words/run"] && mixed.decks == ["words"])
        #expect(
            mixed.good == 0 && mixed.hard == 1 && mixed.new == 0,
            "the verse's good review and its newness leave the counts")
        let profileText = try #require(directory.read("profiles/ana/profile.yaml"))
        let profile = try #require(Profile.decode(profileText, path: "p").0)
        #expect(profile.passagePracticeConsent?.granted == false && !profile.keepsPassagePractice)
        let message = await Shell.run("git", ["log", "-1", "--format=%B"], in: root).stdout
        #expect(message.contains("Rote-Erasure: ana") && message.contains("Rote-Erasure-Scope: passages"))
        #expect(await Shell.run("git", ["status", "--porcelain"], in: root).stdout.isEmpty, "one commit holds it all")
        let tree = await Shell.run("git", ["grep", "-l", "joh-11-35", "HEAD", "--", "profiles"], in: root).stdout
        #expect(tree.isEmpty, "no committed file of ana names the passage: \(tree)")

        // Withdrawing again erases nothing more and makes no commit.
        let again = try PassageConsent.withdraw(user: "ana", git: git)
        #expect(again.commit == nil && again.deleted.isEmpty)
    }

    @Test func purgingHistoryLeavesNoCommitHoldingThePassagePractice() async throws {
        let git = try LibraryTransaction(root: root, user: "ana", purpose: "test")
        await #expect(throws: LibraryError.self) { try await PassageConsent.purgeHistory(user: "ana", git: git) }
        _ = try PassageConsent.withdraw(user: "ana", git: git)
        let report = try await PassageConsent.purgeHistory(user: "ana", git: git)
        #expect(report.rewritten == 2)
        let everything = await Shell.run("git", ["log", "--all", "-p", "--format=%H"], in: root).stdout
        #expect(
            !everything.contains("A private thought.") && !everything.contains("answer: Jesus wept."),
            "no commit's files hold the practice")
        #expect(everything.contains("words/run"), "the rest of history stays")
        #expect(await Shell.run("git", ["fsck", "--no-progress"], in: root).status == 0)
    }

    @Test func syncKeepsTheErasureWhereAnotherCloneKeptPractising() async throws {
        let hub = TemporaryDirectory("rote-consent-hub")
        let remote = hub.url.appending(path: "remote.git")
        let second = hub.url.appending(path: "second")
        await Shell.run("git", ["clone", "-q", "--bare", root.path, remote.path])
        await Shell.run("git", ["remote", "add", "origin", remote.path], in: root)
        await Shell.run("git", ["fetch", "-q", "origin"], in: root)
        await Shell.run("git", ["branch", "-q", "--set-upstream-to=origin/main"], in: root)
        await Shell.run("git", ["clone", "-q", remote.path, second.path])
        // The second clone reviews the verse offline…
        let path = "profiles/ana/progress/verses/joh-11-35.yaml"
        let more =
            Self.verseProgress.replacingOccurrences(of: "\n\n", with: "\n")
            + "  - {id: v2, at: 2026-11-04T09:00:00Z, grade: easy, device: dev-bbbbbbbbbbbb}\n"
        try Data(more.utf8).write(to: second.appending(path: path))
        try LibraryGit(root: second, user: "ana").commit(changes: [path: Data(more.utf8)], message: "Study: 1 review\n")
        // …while the first withdraws consent.
        _ = try PassageConsent.withdraw(user: "ana", git: LibraryTransaction(root: root, user: "ana", purpose: "test"))
        for clone in [root, second, root] { _ = try LibrarySync.sync(root: clone, user: "ana") }
        for clone in [root, second] {
            #expect(
                await Shell.run(
                    "git", ["ls-tree", "-r", "--name-only", "HEAD", "profiles/ana/progress/verses"], in: clone
                )
                .stdout.isEmpty)
            #expect(
                await Shell.run(
                    "git", ["ls-tree", "-r", "--name-only", "HEAD", "profiles/ana/progress/words"], in: clone
                )
                .stdout.contains("run.yaml"))
        }
        #expect(
            await Shell.run("git", ["rev-parse", "HEAD^{tree}"], in: root).stdout
                == Shell.run("git", ["rev-parse", "HEAD^{tree}"], in: second).stdout)
    }
}
