package import Foundation
import HTTPTypes
package import Hummingbird
import Launch
import LetterTracing
import RoteLibrary
import RoteModel
package import RoteStore
import Scheduling
import Study
import WebPages

/// `rote serve`'s application: the pages, the JSON API of `docs/web.md`, and the one study
/// session a learner can have open. Every answer comes from `Library` and Study — the code
/// every `rote` command runs — never from a rule of its own.
package final class WebApp: @unchecked Sendable {
    /// Request bodies larger than these are refused (413).
    package enum BodyLimit {
        package static let json = 64 << 10
        /// A text pasted into the reader.
        package static let readerText = 512 << 10
        /// A tracing attempt with every point of its drawing.
        package static let drawing = 512 << 10
    }

    package let root: URL
    package let user: String
    package let policy: AccessPolicy
    let lock = NSLock()
    private var opened: (library: Library, stamp: FileStamp?, settingsWrites: Int)?
    /// The git every write of this server uses, kept open between them. A write answers once
    /// its files and its pending commit are durable; the commit is made behind it, in order
    /// (`LibraryGitPool(defersCommits:)`).
    package let commits = LibraryCommits(deferred: true)
    /// Stats read every progress file (a second at 100k entries): kept until the next commit
    /// or the next day, and worked out in the background when the server starts.
    private var statsCache: (stamp: FileStamp?, day: String, stats: StudyStats)?
    var session: WebStudySession?

    package init(root: URL, user: String, policy: AccessPolicy) {
        self.root = root
        self.user = user
        self.policy = policy
    }

    /// The port the server listens on, once it is (for the Origin check).
    package func listening(on port: Int) { policy.port.value = port }

    /// The library, opened again when git's index changed since by a `rote` command beside
    /// the server, so answers follow the files. A commit of this server's own writes (made
    /// behind them, `commits`) changes nothing the open library does not already hold: its
    /// writes were recorded in it as they were answered.
    func library() throws -> Library {
        let stamp = FileStamp(path: root.appending(path: ".git/index").path)
        let settingsWrites = commits.settingsWrites
        return try lock.withLock {
            if let opened, opened.settingsWrites == settingsWrites {
                if opened.stamp == stamp { return opened.library }
                if stamp != nil, stamp == commits.lastCommittedIndexStamp {
                    self.opened = (opened.library, stamp, settingsWrites)
                    return opened.library
                }
            }
            let library = try Library(root: root, user: user)
            library.commits = commits
            opened = (library, stamp, settingsWrites)
            return library
        }
    }

    /// The learner's stats as `rote stats` works them out, from the cache when nothing was
    /// committed since and it is still the same day.
    func cachedStats() throws -> StudyStats {
        let stamp = FileStamp(path: root.appending(path: ".git/index").path)
        let day = Timestamp.format(Date()).prefix(10) + TimeZone.current.identifier
        if let cached = lock.withLock({ statsCache }), cached.stamp == stamp, cached.day == day { return cached.stats }
        let stats = try library().stats()
        lock.withLock { statsCache = (stamp, String(day), stats) }
        return stats
    }

    /// Works the stats out ahead of the first page that shows them, and the commits' changed
    /// paths ahead of the first entry page.
    package func warmUp() {
        Thread.detachNewThread { [self] in
            _ = try? cachedStats()
            try? library().rememberChangedPaths()
        }
    }

    /// Commits what a `rote serve` that crashed left pending, before the first request: any
    /// writer does it first (`LibraryTransaction`). A library another `rote` is writing is left to
    /// it; that command commits them as it starts.
    package func commitLeftovers() {
        _ = try? LibraryTransaction(root: root, user: user, purpose: "serve", commits: commits)
    }

    /// Stops a study session in progress and waits until it is committed (Ctrl-C): the
    /// session, then every write's commit still queued.
    package func stopSession() {
        let running = lock.withLock { session }
        running?.stop()
        commits.waitForCommits()
        if let error = commits.committerError {
            LibraryNotices.send(
                "rote: \(commits.pendingCommits) write(s) saved but not committed (\(error)); the next rote command that writes commits them"
            )
        }
    }

    package func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: AccessMiddleware(policy: policy))
        router.get("/") { _, _ in try Self.page("index.html") }
        router.get("/assets/{name}") { _, context in try Self.page(context.parameters.require("name")) }
        // Browsers ask for it whatever the page links; the app's icon, an SVG.
        router.get("/favicon.ico") { _, _ in try Self.page("favicon.svg") }
        router.get("/media/**") { request, _ in try self.media(request.uri.path) }
        router.get("/api/strings") { request, _ in
            try JSONReply.ok(
                try UIStrings.answer(
                    requested: request.uri.queryParameters.get("lang"), acceptLanguage: request.headers[.acceptLanguage]
                ))
        }
        router.get("/api/today") { _, _ in try JSONReply.ok(self.today()) }
        router.get("/api/session") { _, _ in try JSONReply.ok(self.currentScreen()) }
        router.post("/api/session") { request, _ in
            let body = try await JSONReply.body(StartRequest.self, of: request, limit: BodyLimit.json)
            return try JSONReply.ok(self.startSession(body))
        }
        router.post("/api/session/reply") { request, _ in
            let body = try await JSONReply.body(ReplyRequest.self, of: request, limit: BodyLimit.json)
            return try JSONReply.ok(self.reply(body))
        }
        router.post("/api/session/recall") { request, _ in
            let body = try await JSONReply.body(RecallRequest.self, of: request, limit: BodyLimit.json)
            return try JSONReply.ok(self.recall(body))
        }
        router.post("/api/reader") { request, _ in
            let body = try await JSONReply.body(ReaderRequest.self, of: request, limit: BodyLimit.readerText)
            return try JSONReply.ok(self.read(body.text))
        }
        router.post("/api/reader/summary") { request, _ in
            let body = try await JSONReply.body(ReaderRequest.self, of: request, limit: BodyLimit.readerText)
            return try JSONReply.ok(self.readingSummary(body.text))
        }
        router.get("/api/lookup") { request, _ in
            guard let word = request.uri.queryParameters.get("word"), !word.isEmpty else {
                throw WebError(.badRequest, "bad_query", "give ?word=")
            }
            return try JSONReply.ok(self.lookup(word))
        }
        router.post("/api/session/undo") { request, _ in
            let body = try await JSONReply.body(UndoSessionRequest.self, of: request, limit: BodyLimit.json)
            return try JSONReply.ok(self.undoSession(body))
        }
        router.post("/api/entries/status") { request, _ in
            let body = try await JSONReply.body(StatusRequest.self, of: request, limit: BodyLimit.json)
            return try JSONReply.ok(self.changeStatus(body))
        }
        router.post("/api/entries/triage") { request, _ in
            let body = try await JSONReply.body(TriageRequest.self, of: request, limit: BodyLimit.json)
            return try JSONReply.ok(self.triage(body))
        }
        router.post("/api/words/ignore") { request, _ in
            let body = try await JSONReply.body(IgnoreWordRequest.self, of: request, limit: BodyLimit.json)
            return try JSONReply.ok(self.ignoreWord(body))
        }
        router.get("/api/decks") { _, _ in try JSONReply.ok(self.decks()) }
        router.get("/api/entries") { request, _ in
            let query = request.uri.queryParameters
            return try JSONReply.ok(
                self.entries(
                    deck: query.get("deck"), search: query.get("q"),
                    offset: query.get("offset").flatMap { Int($0) } ?? 0,
                    limit: min(200, query.get("limit").flatMap { Int($0) } ?? 50)))
        }
        router.get("/api/entry") { request, _ in
            guard let id = request.uri.queryParameters.get("id"), !id.isEmpty else {
                throw WebError(.badRequest, "bad_query", "give ?id=")
            }
            return try JSONReply.ok(self.entry(id))
        }
        router.get("/api/stats") { _, _ in try JSONReply.ok(self.stats()) }
        router.get("/api/simulate") { _, _ in try JSONReply.ok(self.simulation()) }
        router.get("/api/letters") { request, _ in
            try JSONReply.ok(self.letters(deck: request.uri.queryParameters.get("deck")))
        }
        router.post("/api/letters/settings") { request, _ in
            let body = try await JSONReply.body(LetterSettingsRequest.self, of: request, limit: BodyLimit.json)
            return try JSONReply.ok(self.changeLetterSettings(body))
        }
        router.post("/api/letters/attempts") { request, _ in
            let body = try await JSONReply.body(TraceRequest.self, of: request, limit: BodyLimit.drawing)
            return try JSONReply.ok(self.recordTrace(body))
        }
        return router
    }

    // MARK: Pages and media

    static let contentTypes = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "json": "application/json; charset=utf-8", "svg": "image/svg+xml",
    ]

    /// An embedded page or asset; nothing on disk is read, so no path can reach outside them.
    static func page(_ name: String) throws -> Response {
        guard let text = WebFiles.files[name], let type = contentTypes[String(name.split(separator: ".").last ?? "")]
        else {
            throw WebError(.notFound, "not_found", "no page \(name)")
        }
        return Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static let mediaTypes = [
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "mp3": "audio/mpeg", "ogg": "audio/ogg", "wav": "audio/wav", "m4a": "audio/mp4",
    ]

    /// `/media/<deck>/<path>`: a file of a deck's folder (`corpus/<deck>/<path>`), of an image
    /// or audio type, and nothing else — no entry or manifest, no `..`, no hidden files, and no
    /// symbolic link anywhere on the way: not `corpus`, the deck's folder, a folder inside it
    /// or the file. A committed `media -> /elsewhere` would otherwise serve whatever it points at.
    func media(_ rawPath: String) throws -> Response {
        let notFound = WebError(.notFound, "not_found", "no such media file")
        guard let path = rawPath.removingPercentEncoding, path.hasPrefix("/media/") else { throw notFound }
        let parts = path.dropFirst("/media/".count).split(separator: "/", omittingEmptySubsequences: false).map(
            String.init)
        guard parts.count >= 2,
            parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") && !$0.contains("\\") && !$0.contains("\0") }),
            let type = Self.mediaTypes[(parts.last!.split(separator: ".").last.map(String.init) ?? "").lowercased()],
            try library().decks[parts[0]] != nil,
            // Beside the entries that name it (`audio: run.mp3`, `docs/format.md`), where the
            // Anki importer puts a package's media too.
            let data = Self.readFollowingNoLink([LibraryPaths.corpus] + parts, under: root)
        else { throw notFound }
        return Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The bytes of the regular file at `components` below `root`, opened one component at a
    /// time with `O_NOFOLLOW`, so no symbolic link is followed on the way, and no link swapped
    /// in between a check and the open is either; nil when any component is a link, a folder
    /// is not a folder, or the file is not a regular file.
    static func readFollowingNoLink(_ components: [String], under root: URL) -> Data? {
        var folder = open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return nil }
        defer { close(folder) }
        for name in components.dropLast() {
            let next = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else { return nil }
            close(folder)
            folder = next
        }
        guard let last = components.last else { return nil }
        let file = openat(folder, last, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: file, closeOnDealloc: true)
        guard FileStamp.isRegularFile(descriptor: file) else { return nil }
        return try? handle.readToEnd() ?? Data()
    }
}
