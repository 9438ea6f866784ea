import Foundation
import Git
import Publishing
import RoteModel
import RoteStore
import TestSupport
import Testing

/// A publisher's repository made with the system git: a bare repository served by file://,
/// and a work tree to publish new versions from.
final class Publisher {
    let folder = TemporaryDirectory("publisher")
    var work: URL { folder.url.appending(path: "work") }
    var bare: URL { folder.url.appending(path: "decks.git") }
    var url: String { "file://" + bare.path }

    init() async {
        await Shell.run("git", ["init", "-q", "-b", "main", work.path])
        await Shell.run("git", ["init", "-q", "--bare", "-b", "main", bare.path])
    }

    func write(_ path: String, _ text: String) { folder.write("work/" + path, text) }

    func remove(_ path: String) { folder.remove("work/" + path) }

    /// Commits everything, tags it, and pushes to the bare repository.
    func publish(_ message: String, tag: String? = nil) async {
        await git(["add", "-A"])
        await git(["-c", "user.name=Publisher", "-c", "user.email=p@example.invalid", "commit", "-qm", message])
        if let tag { await git(["tag", "-a", tag, "-m", tag]) }
        await git(["push", "-q", "--follow-tags", bare.path, "main"])
    }

    @discardableResult
    func git(_ arguments: [String]) async -> Shell.Output { await Shell.run("git", arguments, in: work) }

    func commit(_ revision: String) async -> String {
        await git(["rev-parse", "\(revision)^{commit}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static let deckV1 = """
        # The Sermon on the Mount, in small portions.
        kind: passages
        title: Beatitudes
        version: 1.0.0
        license: CC0-1.0

        """

    static let blessedV1 = """
        reference: Matthew 5:3
        text: Blessed are the poor in spirit, for theirs is the kingdom of heaven.
        translation: KJV
        order: 1

        """

    static let mournV1 = """
        reference: Matthew 5:4
        text: Blessed are they that mourn, for they shall be comforted.
        translation: KJV
        order: 2

        """

    /// Version 1.0.0 of two decks (`decks/beatitudes`, `decks/batch-02`), tagged v1.0.0.
    func publishVersion1() async {
        write("decks/beatitudes/deck.yaml", Self.deckV1)
        write("decks/beatitudes/mat-5-3.yaml", Self.blessedV1)
        write("decks/beatitudes/mat-5-4.yaml", Self.mournV1)
        write("decks/batch-02/deck.yaml", "kind: passages\ntitle: Batch 2\nversion: 1.0.0\n")
        write("CHANGELOG.md", "# Changelog\n\n## 1.0.0\n\n- First portions.\n")
        await publish("Beatitudes 1.0.0", tag: "v1.0.0")
    }

    /// Version 1.1.0: a corrected verse 3, a new verse 5, a changelog entry; tagged v1.1.0.
    func publishVersion11() async {
        write(
            "decks/beatitudes/deck.yaml", Self.deckV1.replacingOccurrences(of: "version: 1.0.0", with: "version: 1.1.0")
        )
        write(
            "decks/beatitudes/mat-5-3.yaml",
            Self.blessedV1.replacingOccurrences(of: "translation: KJV", with: "translation: KJV (1769)"))
        write(
            "decks/beatitudes/mat-5-5.yaml",
            "reference: Matthew 5:5\ntext: Blessed are the meek, for they shall inherit the earth.\ntranslation: KJV\norder: 3\n"
        )
        write(
            "CHANGELOG.md",
            "# Changelog\n\n## 1.1.0\n\n- Matthew 5:5 added.\n- Edition named.\n\n## 1.0.0\n\n- First portions.\n")
        await publish("Beatitudes 1.1.0", tag: "v1.1.0")
    }
}

@Suite struct PublisherDecksTests {
    static var binary: String { Checkout.productsDirectory.appending(path: "rote").path }

    func rote(_ arguments: [String], in library: TemporaryDirectory) async -> Shell.Output {
        await Shell.run(Self.binary, arguments, in: library.url)
    }

    /// A fixture library that has added the publisher's first version of `decks/beatitudes`,
    /// with `options` for `rote deck add`.
    func subscribedLibrary(to publisher: Publisher, _ options: [String] = []) async -> TemporaryDirectory {
        await publisher.publishVersion1()
        let library = TemporaryDirectory()
        await FixtureLibrary.write(into: library)
        let added = await rote(["deck", "add", publisher.url, "--path", "decks/beatitudes"] + options, in: library)
        #expect(added.status == 0, "\(added.stderr)")
        return library
    }

    func head(_ library: TemporaryDirectory) async -> String {
        await Shell.run("git", ["rev-parse", "HEAD"], in: library.url).stdout
    }

    func isClean(_ library: TemporaryDirectory) async -> Bool {
        await Shell.run("git", ["status", "--porcelain", "--untracked-files=all"], in: library.url).stdout.isEmpty
    }

    func commitAll(_ library: TemporaryDirectory, _ message: String) async {
        await Shell.run("git", ["add", "-A"], in: library.url)
        await Shell.run(
            "git", ["-c", "user.name=Ana", "-c", "user.email=a@example.invalid", "commit", "-qm", message],
            in: library.url)
    }

    @Test func addRecordsTheSourceAndStatusOffersTheNextVersionWithItsChangelog() async throws {
        let publisher = await Publisher()
        await publisher.publishVersion1()
        let library = TemporaryDirectory()
        await FixtureLibrary.write(into: library)

        let added = await rote(
            ["deck", "add", publisher.url, "--path", "decks/beatitudes", "--ref", "v1.0.0"], in: library)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasPrefix("Added deck beatitudes 1.0.0 (3 files)"), "\(added.stdout)")
        #expect(await isClean(library))
        #expect(
            await Shell.run("git", ["log", "-1", "--format=%s"], in: library.url).stdout.hasPrefix(
                "Add deck beatitudes 1.0.0 from \(publisher.url)"))
        let deckText = try #require(library.read("corpus/beatitudes/deck.yaml"))
        #expect(
            deckText.hasPrefix("# The Sermon on the Mount, in small portions.\nkind: passages"),
            "the publisher's comments and layout stay")
        let manifest = try #require(DeckManifest.decode(deckText, path: "deck.yaml").0)
        #expect(
            await manifest.upstream
                == DeckManifest.Upstream(
                    url: publisher.url, path: "decks/beatitudes", ref: "v1.0.0", commit: publisher.commit("v1.0.0"),
                    version: "1.0.0"))
        #expect(library.read("corpus/beatitudes/mat-5-3.yaml") == Publisher.blessedV1)
        let loaded = try LibraryLoader().load(library.url)
        #expect(loaded.errors.isEmpty, "\(loaded.errors)")
        #expect(loaded.entries.contains { $0.id == "beatitudes/mat-5-4" })

        let current = await rote(["deck", "status"], in: library)
        #expect(current.stdout == "beatitudes 1.0.0: up to date\n", "\(current.stdout)\(current.stderr)")

        await publisher.publishVersion11()
        let before = await head(library)
        let offered = await rote(["deck", "status"], in: library)
        #expect(offered.status == 0, "\(offered.stderr)")
        #expect(offered.stdout.contains("beatitudes 1.0.0: version 1.1.0 available (v1.1.0)"), "\(offered.stdout)")
        #expect(offered.stdout.contains("    - Matthew 5:5 added."), "the changelog between the versions")
        #expect(!offered.stdout.contains("First portions"), "only what is new")
        #expect(await head(library) == before, "status offers, never changes")
        #expect(await isClean(library))
    }

    /// A newer version is mentioned by study and stats once a day, from what the learner's
    /// own `deck status` fetched: they never fetch.
    @Test func studyMentionsAKnownUpdateOnceADayWithoutFetching() async throws {
        let publisher = await Publisher()
        let library = await subscribedLibrary(to: publisher, ["--ref", "v1.0.0"])
        await publisher.publishVersion11()
        let notice = "beatitudes: version 1.1.0 is available from its publisher; `rote deck update beatitudes` takes it"
        let unknown = await rote(["--user", "ana", "study", "--plan"], in: library)
        #expect(!unknown.stderr.contains(notice), "nothing was fetched, so 1.1.0 is not known yet: \(unknown.stderr)")
        #expect(await rote(["deck", "status"], in: library).stdout.contains("version 1.1.0 available"))
        let first = await rote(["--user", "ana", "study", "--plan"], in: library)
        #expect(first.stderr.contains(notice), "\(first.stderr)")
        #expect(await !rote(["--user", "ana", "stats"], in: library).stderr.contains(notice), "once a day")
        library.remove(".git/rote/reminders")
        #expect(
            await rote(["--user", "ana", "stats"], in: library).stderr.contains(notice),
            "the next day (the record of today's gone)")
        #expect(await isClean(library))
    }

    @Test func updateMergesThePublishersVersionAndKeepsLocalEdits() async throws {
        let publisher = await Publisher()
        let library = await subscribedLibrary(to: publisher, ["--as", "sermon"])

        // The learner adds a mnemonic to verse 3 (a line the publisher does not touch) and
        // rewrites the deck's opening comment; the publisher corrects verse 3's edition, adds
        // verse 5 and bumps the version.
        let mine = Publisher.blessedV1.replacingOccurrences(of: "order: 1", with: "order: 1\nmnemonic: poor → kingdom")
        library.write("corpus/sermon/mat-5-3.yaml", mine)
        let deck = try #require(library.read("corpus/sermon/deck.yaml")).replacingOccurrences(
            of: "# The Sermon on the Mount, in small portions.", with: "# My copy, with mnemonics.")
        library.write("corpus/sermon/deck.yaml", deck)
        await commitAll(library, "my notes")
        await publisher.publishVersion11()

        let updated = await rote(["deck", "update", "sermon"], in: library)
        #expect(updated.status == 0, "\(updated.stderr)")
        #expect(updated.stdout.contains("Updated sermon 1.0.0 → 1.1.0"), "\(updated.stdout)")
        #expect(updated.stdout.contains("merged with your edits: deck.yaml, mat-5-3.yaml"), "\(updated.stdout)")
        #expect(await isClean(library))
        #expect(
            library.read("corpus/sermon/mat-5-3.yaml") == """
                reference: Matthew 5:3
                text: Blessed are the poor in spirit, for theirs is the kingdom of heaven.
                translation: KJV (1769)
                order: 1
                mnemonic: poor → kingdom

                """)
        #expect(library.read("corpus/sermon/mat-5-5.yaml")?.contains("Blessed are the meek") == true)
        let manifest = try #require(
            DeckManifest.decode(library.read("corpus/sermon/deck.yaml") ?? "", path: "deck.yaml").0)
        #expect(
            library.read("corpus/sermon/deck.yaml")?.hasPrefix("# My copy, with mnemonics.\nkind: passages") == true)
        #expect(manifest.version == "1.1.0")
        #expect(await manifest.upstream?.commit == publisher.commit("main"))
        #expect(manifest.upstream?.version == "1.1.0")
        let loaded = try LibraryLoader().load(library.url)
        #expect(loaded.errors.isEmpty, "\(loaded.errors)")

        let again = await rote(["deck", "update", "sermon"], in: library)
        #expect(again.stdout.contains("sermon 1.1.0 is up to date"), "\(again.stdout)")

        // The add (HEAD~2) and the update carry the trailers every Rote commit does, which `rote
        // log` reads to say who did what on which device.
        for revision in ["HEAD", "HEAD~2"] {
            let message = await Shell.run("git", ["log", "-1", "--format=%B", revision], in: library.url).stdout
            #expect(SessionCommitMessage.trailer("Rote-User", in: message) != nil, "\(revision): \(message)")
            #expect(SessionCommitMessage.trailer("Rote-Device", in: message) != nil, "\(revision): \(message)")
        }
    }

    @Test func aTrueConflictIsReportedWithFileAndLineAndChangesNothing() async throws {
        let publisher = await Publisher()
        let library = await subscribedLibrary(to: publisher, ["--ref", "v1.0.0"])
        library.write(
            "corpus/beatitudes/mat-5-3.yaml",
            Publisher.blessedV1.replacingOccurrences(of: "translation: KJV", with: "translation: King James"))
        await commitAll(library, "my edition name")
        await publisher.publishVersion11()

        let before = await head(library)
        let refused = await rote(["deck", "update", "beatitudes"], in: library)
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "corpus/beatitudes/mat-5-3.yaml:3: conflict: your edit and the publisher's change touch the same lines"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("nothing was changed"))
        #expect(await head(library) == before)
        #expect(await isClean(library))

        let kept = await rote(["deck", "update", "beatitudes", "--prefer", "mine"], in: library)
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(library.read("corpus/beatitudes/mat-5-3.yaml")?.contains("translation: King James\n") == true)
        #expect(library.read("corpus/beatitudes/mat-5-5.yaml") != nil)
        #expect(
            library.read("corpus/beatitudes/deck.yaml")?.contains("ref: v1.1.0") == true,
            "a tag-pinned deck moves to the newest tag")
    }

    @Test func badPublishersAndNamesGetClearErrorsAndChangeNothing() async throws {
        let publisher = await Publisher()
        await publisher.publishVersion1()
        let library = TemporaryDirectory()
        await FixtureLibrary.write(into: library)
        let before = await head(library)
        let cases: [([String], String)] = [
            (
                ["deck", "add", "file:///nonexistent/decks.git"],
                "cannot reach the publisher at file:///nonexistent/decks.git"
            ),
            (
                ["deck", "add", publisher.url],
                "has no deck.yaml at its root (default branch); decks there: decks/batch-02, decks/beatitudes; choose one with --path"
            ),
            (
                ["deck", "add", publisher.url, "--path", "decks/beatitudes", "--ref", "v9"],
                "has no tag, branch or commit 'v9'; its tags: v1.0.0"
            ),
            (
                ["deck", "add", publisher.url, "--path", "decks/beatitudes", "--as", "words"],
                "deck 'words' already exists"
            ),
            (
                ["deck", "add", publisher.url, "--path", "decks/beatitudes", "--as", "Bad Name"],
                "is not a valid deck name"
            ),
            (["deck", "update", "words"], "deck 'words' was not added from a publisher"),
            (["deck", "update", "nothing"], "no deck 'nothing' in this library"),
        ]
        for (arguments, message) in cases {
            let output = await rote(arguments, in: library)
            #expect(output.status == 1, "\(arguments)")
            #expect(output.stderr.contains(message), "\(arguments): \(output.stderr)")
        }
        #expect(await head(library) == before)
        #expect(await isClean(library))

        // A batch is added on its own; its publisher going away is reported by status.
        #expect(await rote(["deck", "add", publisher.url, "--path", "decks/batch-02"], in: library).status == 0)
        try FileManager.default.removeItem(at: publisher.bare)
        let status = await rote(["deck", "status"], in: library)
        #expect(
            status.stdout.contains("batch-02 1.0.0: could not check — cannot reach the publisher"), "\(status.stdout)")
        let update = await rote(["deck", "update", "batch-02"], in: library)
        #expect(update.status == 1)
        #expect(update.stderr.contains("cannot reach the publisher"))
    }

    @Test func statusDoesNotFetchIntoAMirrorAnotherProcessIsFetchingInto() async throws {
        let publisher = await Publisher()
        let library = await subscribedLibrary(to: publisher)
        let mirrors = library.url.appending(path: ".git/rote/publishers")
        let locks = try FileManager.default.contentsOfDirectory(atPath: mirrors.path).filter { $0.hasSuffix(".lock") }
        #expect(locks.count == 1, "one lock beside the one mirror: \(locks)")
        let lockFile = mirrors.appending(path: try #require(locks.first))

        let fetching = try Shell.holdLock(lockFile, note: "pid 4242: rote deck status")
        let busy = await rote(["deck", "status"], in: library)
        let update = await rote(["deck", "update", "beatitudes"], in: library)
        kill(fetching.processIdentifier, SIGKILL)
        fetching.waitUntilExit()
        #expect(busy.status == 1)
        #expect(
            busy.stderr.contains("another rote process is using the mirror of the publisher \(publisher.url)"),
            "\(busy.stderr)")
        #expect(busy.stderr.contains("(pid 4242: rote deck status); wait for it to finish"), "\(busy.stderr)")
        #expect(
            update.status == 1 && update.stderr.contains("the mirror of the publisher"),
            "update guards the mirror too: \(update.stderr)")

        // The library's lock (held by a study session, say) does not stop a status check,
        // which writes nothing in the library.
        let studying = try Shell.holdLock(library.url.appending(path: ".git/rote/lock"), note: "pid 4343: rote study")
        let during = await rote(["deck", "status"], in: library)
        kill(studying.processIdentifier, SIGKILL)
        studying.waitUntilExit()
        #expect(during.status == 0, "\(during.stderr)")
        #expect(during.stdout == "beatitudes 1.0.0: up to date\n", "\(during.stdout)")
        #expect(await rote(["deck", "status"], in: library).status == 0, "the lock goes with the process that held it")
    }

    @Test func uncommittedEditsInTheDeckStopAnUpdate() async throws {
        let publisher = await Publisher()
        let library = await subscribedLibrary(to: publisher)
        await publisher.publishVersion11()
        library.write("corpus/beatitudes/mat-5-4.yaml", Publisher.mournV1 + "mnemonic: unsaved\n")
        let output = await rote(["deck", "update", "beatitudes"], in: library)
        #expect(output.status == 1)
        #expect(
            output.stderr.contains("corpus/beatitudes/ has uncommitted edits (corpus/beatitudes/mat-5-4.yaml)"),
            "\(output.stderr)")
        #expect(library.read("corpus/beatitudes/mat-5-4.yaml")?.hasSuffix("mnemonic: unsaved\n") == true)
    }

    /// A deck's `upstream.url` is whatever a collaborator wrote into deck.yaml, so the token
    /// never goes there — not even when it is scoped to that very host.
    @Test func publisherDecksNeverSendTheToken() async throws {
        try TestCertificate.trust()
        let publisher = await Publisher()
        await publisher.publishVersion1()
        let server = try AuthenticatingGitServer(
            projectRoot: publisher.folder.url, user: "x-access-token", password: "s3cret-token",
            scratch: publisher.folder, tls: true)
        let library = TemporaryDirectory()
        await FixtureLibrary.write(into: library)
        let token = Credentials(token: "s3cret-token", tokenHost: "127.0.0.1", useCredentialHelpers: false)
        let decks = PublisherDecks(root: library.url, user: "ana", credentials: token)

        let refused = try #require(throws: PublisherError.self) {
            try decks.add(url: server.url("decks.git"), path: "decks/beatitudes")
        }
        #expect(refused.code == .unreachable, "\(refused)")
        #expect(server.authenticatedRequests == 0, "deck add sent the token")

        // A deck added from the publisher, whose upstream.url someone then points elsewhere.
        #expect(await rote(["deck", "add", publisher.url, "--path", "decks/beatitudes"], in: library).status == 0)
        let deckFile = library.url.appending(path: "corpus/beatitudes/deck.yaml")
        let deckText = try String(contentsOf: deckFile, encoding: .utf8)
        try Data(deckText.replacingOccurrences(of: publisher.url, with: server.url("decks.git")).utf8).write(
            to: deckFile)
        await commitAll(library, "Point the deck at another server")
        let states = try decks.status()
        guard case .unreachable(let message)? = states.first?.state else {
            Issue.record("status reached the server: \(states)")
            return
        }
        #expect(
            message.contains("ROTE_GIT_TOKEN (not sent: a publisher's address comes from a deck.yaml"), "\(message)")
        #expect(server.authenticatedRequests == 0, "deck status sent the token")
    }

    /// deck.yaml is committed and shared, so a password in the address never gets there.
    @Test func addRefusesAnAddressWithAPassword() async throws {
        let library = TemporaryDirectory()
        await FixtureLibrary.write(into: library)
        let before = await head(library)
        let decks = PublisherDecks(
            root: library.url, user: "ana", credentials: Credentials(token: nil, useCredentialHelpers: false))
        let error = try #require(throws: PublisherError.self) {
            try decks.add(url: "https://alice:hunter2@127.0.0.1:9/decks.git")
        }
        #expect(error.code == .credentialInURL, "\(error)")
        #expect(
            error.message.contains("https://alice:***@127.0.0.1:9/decks.git holds a user name or password"), "\(error)")
        #expect(!error.message.contains("hunter2"))
        #expect(await head(library) == before)
        #expect(await isClean(library))
    }

    @Test func theUpstreamBlockRoundTripsThroughDeckYAML() {
        let upstream = DeckManifest.Upstream(
            url: "https://example.org/d.git", path: "a/b", ref: "v1", commit: String(repeating: "a", count: 40),
            version: "1.2.3")
        let manifest = DeckManifest(kind: .passages, title: "T", version: "1.2.3", upstream: upstream)
        #expect(DeckManifest.decode(manifest.render(), path: "deck.yaml").0 == manifest)
        let (bad, problems) = DeckManifest.decode(
            "kind: passages\ntitle: T\nversion: 1.0.0\nupstream: {url: x, commit: abc, version: 1.0.0}\n",
            path: "deck.yaml")
        #expect(bad?.upstream == nil)
        #expect(problems.contains { $0.message.contains("not a 40-digit git commit id") })
    }
}
