import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LibGit
import SystemPackage
import Yams

/// Reads a library's files into a `LoadedLibrary`, parsing on every core.
public struct LibraryLoader: Sendable {
    /// Whose learner files to read.
    public enum Users: Sendable, Equatable {
        case all
        case only(String)
    }

    public var users: Users
    /// Session files are history, needed by `check`, `log` and stats, not by study.
    public var includeSessions: Bool

    public init(users: Users = .all, includeSessions: Bool = true) {
        self.users = users
        self.includeSessions = includeSessions
    }

    /// Loads the library at `root`. Throws only when there is no library at all; every
    /// problem with a file is a diagnostic in the result.
    public func load(_ root: URL) throws -> LoadedLibrary {
        let root = root.standardizedFileURL.resolvingSymlinksInPath()
        var (library, files) = try list(root)
        let results = parseInParallel(root: root, files: files, decks: library.decks)
        for result in results { LibraryLoader.collect(result, into: &library) }
        library.entries = LibraryLoader.sortedInStudyOrder(library.entries, deckOrder: library.deckOrder)
        for user in library.sessions.keys { library.sessions[user]?.sort { $0.startedAt < $1.startedAt } }
        library.diagnostics += LibraryValidator.crossFileProblems(library)
        library.diagnostics.sort(by: Diagnostic.fileOrder)
        return library
    }

    /// The first half of a load: the library with its manifest and deck manifests read, and
    /// every other file it wants, classified, in path order — what `load` parses next.
    /// `listed` is a listing the caller already made by the same rules as `listFiles` (sorted,
    /// links followed only to files inside the library), so one walk of the folders serves both.
    public func list(_ root: URL, listed: [String]? = nil) throws -> (LoadedLibrary, [(String, LibraryFile)]) {
        let root = root.standardizedFileURL.resolvingSymlinksInPath()
        var library = LoadedLibrary(root: root)
        let manifestURL = root.appending(path: LibraryLocation.manifestName)
        guard let manifestData = FileManager.default.contents(atPath: manifestURL.path) else {
            throw LibraryError(.notALibrary, "\(manifestURL.path): missing, so this is not a Rote library; create one with `rote init \(root.path)`")
        }
        let (manifest, manifestProblems) = LibraryManifest.decode(manifestData, path: LibraryLocation.manifestName)
        library.manifest = manifest
        library.diagnostics += manifestProblems
        if !Repository.isWorkTree(root) {
            library.diagnostics.append(.error(".git", nil, "\(root.path) is not a git repository, so it cannot sync or keep history; run `git init` there and commit, or create a library with `rote init`"))
        }

        var (paths, listingProblems) = listed.map { ($0, []) } ?? listFiles(root)
        library.diagnostics += listingProblems
        var classified: [(String, LibraryFile)] = []
        classified.reserveCapacity(paths.count)
        // Deck manifests are noted on the way: a second pass over 150 000 files cost 30 ms.
        var deckManifests: [(path: String, deck: String)] = []
        for (path, kind) in zip(paths, paths.concurrentMap(LibraryFile.classify)) {
            switch kind {
            case let .success(kind):
                if case .manifest = kind { continue }
                if !wanted(kind) { continue }
                if case let .deckManifest(deck) = kind { deckManifests.append((path, deck)) }
                classified.append((path, kind))
            case let .failure(problem):
                library.diagnostics.append(problem)
            }
        }
        paths = []

        // Deck manifests first: an entry's format depends on its deck's kind.
        for (path, deck) in deckManifests {
            let (value, problems) = DeckManifest.decode(read(root, path, &library.diagnostics) ?? Data(), path: path)
            library.diagnostics += problems
            if let value { library.decks[deck] = value }
        }

        library.fileCount = classified.count + 1
        return (library, classified)
    }

    /// Puts one parsed file's value and problems into the library.
    public static func collect(_ result: ParseResult, into library: inout LoadedLibrary) {
        library.diagnostics += result.problems
        switch result.value {
        case let .entry(entry): library.entries.append(entry)
        case let .domain(key, value): library.domains[key] = value
        case let .skill(key, value): library.skills[key] = value
        case let .profile(user, value): library.profiles[user] = value
        case let .progress(user, value): library.progress[user, default: [:]][value.entry] = value
        case let .session(user, value): library.sessions[user, default: []].append(value)
        case let .letters(user, value): library.letterAttempts[user, default: [:]][value.letter] = value
        case .none: break
        }
    }

    /// Entries in study order. Sorts their keys, each deck's place looked up once, and moves
    /// every entry once: entries are large and a 100 000-entry sort compares 1.7 million times.
    public static func sortedInStudyOrder(_ entries: [Entry], deckOrder: [String]) -> [Entry] {
        sortedInStudyOrder(entries, deckOrder: deckOrder) { ($0.deck, $0.sortKey, $0.id) }
    }

    /// Anything that stands for entries, in study order by the entry `key` gives.
    public static func sortedInStudyOrder<Item>(_ items: [Item], deckOrder: [String], key: (Item) -> (deck: String, sortKey: Int, id: String)) -> [Item] {
        let order = Dictionary(deckOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let keys = items.map { item in
            let key = key(item)
            return (deck: order[key.deck] ?? Int.max, sortKey: key.sortKey, id: key.id)
        }
        return keys.indices.sorted { precedes(keys[$0], keys[$1]) }.map { items[$0] }
    }

    /// Study order on keys whose deck is already its place in the deck order.
    @inline(__always)
    static func precedes(_ lhs: (deck: Int, sortKey: Int, id: String), _ rhs: (deck: Int, sortKey: Int, id: String)) -> Bool {
        if lhs.deck != rhs.deck { return lhs.deck < rhs.deck }
        if lhs.sortKey != rhs.sortKey { return lhs.sortKey < rhs.sortKey }
        return lhs.id < rhs.id
    }

    private func wanted(_ kind: LibraryFile) -> Bool {
        let owner: String?
        switch kind {
        case let .profile(user), let .progress(user, _), let .saved(user), let .letters(user, _): owner = user
        case let .session(user):
            if !includeSessions { return false }
            owner = user
        default: owner = nil
        }
        guard let owner, case let .only(user) = users else { return true }
        return owner == user
    }

    /// Every regular file under `corpus/` and `profiles/`, as sorted library-relative paths,
    /// skipping hidden names. A symbolic link that leads outside the library is refused.
    /// (`readdir` with the entry types it reports: Foundation's enumerator asked for resource
    /// values per file, which cost more than reading the files.)
    /// `folders` narrows the walk to those library-relative folders (a learner's progress, say).
    public func listFiles(_ root: URL, under folders: [String] = ["corpus", "profiles"]) -> ([String], [Diagnostic]) {
        var paths: [String] = []
        var problems: [Diagnostic] = []
        let rootPath = root.path.hasSuffix("/") ? String(root.path.dropLast()) : root.path
        func walk(_ relative: String) {
            guard let directory = opendir(rootPath + "/" + relative) else { return }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                let path = relative + "/" + name
                if name.hasPrefix(".") {
                    // Noticed here, where every name passes anyway, rather than by a walk of its own.
                    if AtomicFile.isTemporary(path: name) { problems.append(AtomicFile.leftoverWarning(path)) }
                    continue
                }
                var type = Int(entry.pointee.d_type)
                if type == DT_UNKNOWN {
                    var info = stat()
                    guard lstat(rootPath + "/" + path, &info) == 0 else { continue }
                    type = (info.st_mode & S_IFMT) == S_IFDIR ? DT_DIR : (info.st_mode & S_IFMT) == S_IFLNK ? DT_LNK : DT_REG
                }
                switch type {
                case DT_DIR:
                    walk(path)
                case DT_LNK:
                    switch Self.link(at: path, root: rootPath) {
                    case let .outside(target):
                        problems.append(.error(path, nil, "symbolic link leads outside the library (to \(target)); copy the file in instead"))
                    case .file where path.hasSuffix(".yaml"): paths.append(path)
                    case .file, .notAFile: continue
                    }
                case DT_REG:
                    if path.hasSuffix(".yaml") { paths.append(path) }
                default:
                    continue
                }
            }
        }
        for top in folders { walk(top) }
        paths.sort()
        return (paths, problems)
    }

    /// Where a symbolic link in the library leads, by the rule every listing keeps: a link is
    /// followed to a file inside the library, never to a folder or out of the library.
    public enum Link: Equatable, Sendable {
        case file
        case notAFile
        case outside(target: String)
    }

    /// The link at `path`, relative to the library at `root`.
    public static func link(at path: String, root: String) -> Link {
        let target = URL(fileURLWithPath: root + "/" + path).resolvingSymlinksInPath().standardizedFileURL.path
        let root = URL(fileURLWithPath: root).resolvingSymlinksInPath().standardizedFileURL.path
        guard target.hasPrefix(root + "/") else { return .outside(target: target) }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory) && !isDirectory.boolValue ? .file : .notAFile
    }

    /// The file's bytes, refusing one over the size limit before reading it. One open, one
    /// fstat and one read: URL resource values cost more than parsing the file.
    public func read(_ root: URL, _ path: String, _ problems: inout [Diagnostic]) -> Data? {
        let descriptor = open(root.path + "/" + path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            problems.append(.error(path, nil, "cannot read the file; check its permissions"))
            return nil
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            problems.append(.error(path, nil, "cannot read the file; check its permissions"))
            return nil
        }
        let size = Int(info.st_size)
        if size > YAMLSource.maximumFileSize {
            problems.append(.error(path, nil, "file is \(size / 1_048_576) MiB; Rote reads files up to \(YAMLSource.maximumFileSize / 1_048_576) MiB — split it or move it out of the library"))
            return nil
        }
        var data = Data(count: size)
        var filled = 0
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            while filled < size {
                guard let count = try? FileDescriptor(rawValue: descriptor).read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<size])),
                    count > 0
                else { return false }
                filled += count
            }
            return true
        }
        guard complete else {
            problems.append(.error(path, nil, "cannot read the whole file (it changed while being read?); try again"))
            return nil
        }
        return data
    }

    public enum ParsedValue: Sendable {
        case entry(Entry)
        case domain(String, SkillDomain)
        case skill(String, Skill)
        case profile(String, Profile)
        case progress(String, ProgressFile)
        case session(String, SessionFile)
        case letters(String, LetterAttemptsFile)
    }

    public struct ParseResult: Sendable {
        public var value: ParsedValue?
        public var problems: [Diagnostic]

        public init(value: ParsedValue?, problems: [Diagnostic]) {
            self.value = value
            self.problems = problems
        }
    }

    func parseInParallel(root: URL, files: [(String, LibraryFile)], decks: [String: DeckManifest]) -> [ParseResult] {
        files.concurrentMap { parse(root: root, path: $0.0, kind: $0.1, decks: decks) }
    }

    /// Reads and parses the library file at `path`, classified by its path; nil for a path
    /// that is no library file.
    public func parse(root: URL, path: String, decks: [String: DeckManifest]) -> ParseResult? {
        guard case let .success(kind) = LibraryFile.classify(path) else { return nil }
        return parse(root: root, path: path, kind: kind, decks: decks)
    }

    /// Reads and parses one library file, as a full load does; `decks` gives entries their format.
    public func parse(root: URL, path: String, kind: LibraryFile, decks: [String: DeckManifest]) -> ParseResult {
        var problems: [Diagnostic] = []
        guard let data = read(root, path, &problems) else { return ParseResult(value: nil, problems: problems) }
        return parse(data, path: path, kind: kind, decks: decks)
    }

    /// Parses bytes already read from the library file at `path`.
    public func parse(_ data: Data, path: String, kind: LibraryFile, decks: [String: DeckManifest]) -> ParseResult {
        var problems: [Diagnostic] = []
        switch kind {
        case .manifest, .deckManifest, .saved:
            return ParseResult(value: nil, problems: [])
        case let .entry(deck, id):
            guard let manifest = decks[deck] else {
                return ParseResult(value: nil, problems: [.error(path, nil, "deck '\(deck)' has no readable corpus/\(deck)/deck.yaml, so its entries cannot be read")])
            }
            if manifest.kind == .skills {
                let depth = id.split(separator: "/").count
                if depth != 4 {
                    return ParseResult(value: nil, problems: [.error(path, nil, "skills questions live at corpus/\(deck)/<domain>/<skill>/<question>.yaml")])
                }
                for segment in id.split(separator: "/").dropFirst() where !Slug.isValidSkillSlug(segment) {
                    return ParseResult(value: nil, problems: [.error(path, nil, "slug '\(segment)' breaks the skills rule ^[a-z0-9_]+$; rename it with underscores")])
                }
            }
            let (content, found) = EntryContent.decode(data, kind: manifest.kind, path: path)
            return ParseResult(value: content.map { .entry(Entry(id: id, deck: deck, path: path, content: $0)) }, problems: found)
        case let .domain(deck, domain):
            let (value, found) = SkillDomain.decode(data, path: path)
            problems += found
            if !Slug.isValidSkillSlug(domain) { problems.append(.error(path, nil, "slug '\(domain)' breaks the skills rule ^[a-z0-9_]+$; rename the folder with underscores")) }
            return ParseResult(value: value.map { .domain("\(deck)/\(domain)", $0) }, problems: problems)
        case let .skill(deck, domain, skill):
            let (value, found) = Skill.decode(data, path: path)
            problems += found
            if !Slug.isValidSkillSlug(skill) { problems.append(.error(path, nil, "slug '\(skill)' breaks the skills rule ^[a-z0-9_]+$; rename the folder with underscores")) }
            return ParseResult(value: value.map { .skill("\(deck)/\(domain)/\(skill)", $0) }, problems: problems)
        case let .profile(user):
            let (value, found) = Profile.decode(data, path: path)
            problems += found
            if let value, value.user != user {
                problems.append(.error(path, nil, "profile says user '\(value.user)' but lives in profiles/\(user)/; make them match"))
            }
            return ParseResult(value: value.map { .profile(user, $0) }, problems: problems)
        case let .progress(user, entry):
            let (value, found) = ProgressFile.decode(data, path: path)
            problems += found
            if let value, value.entry != entry {
                problems.append(.error(path, nil, "progress file is for '\(value.entry)' but its path says '\(entry)'; move it or fix 'entry'"))
                return ParseResult(value: nil, problems: problems)
            }
            return ParseResult(value: value.map { .progress(user, $0) }, problems: problems)
        case let .session(user):
            let (value, found) = SessionFile.decode(data, path: path)
            return ParseResult(value: value.map { .session(user, $0) }, problems: found)
        case let .letters(user, letter):
            let (value, found) = LetterAttemptsFile.decode(data, path: path)
            problems += found
            if let value, value.letter != letter {
                problems.append(.error(path, nil, "letter attempts are for '\(value.letter)' but the path says '\(letter)'; move the file or fix 'letter'"))
                return ParseResult(value: nil, problems: problems)
            }
            return ParseResult(value: value.map { .letters(user, $0) }, problems: problems)
        }
    }
}

extension Array where Element: Sendable {
    /// `map` on every core, results in order: for long runs of independent work.
    public func concurrentMap<Result: Sendable>(_ transform: @Sendable (Element) -> Result) -> [Result] {
        concurrentMap(state: {}) { _, element in transform(element) }
    }

    /// `concurrentMap` where the work on a run of items shares `state` (a buffer to read
    /// into, say), made afresh for each run.
    public func concurrentMap<State, Result: Sendable>(state makeState: @Sendable () -> State, _ transform: @Sendable (inout State, Element) -> Result) -> [Result] {
        let results = ParallelSlots<Result>(count: count)
        let workers = Swift.max(1, ProcessInfo.processInfo.activeProcessorCount)
        // Small chunks taken in turn keep both cores busy to the end even when items cost
        // unevenly (a library lists its words before its progress files).
        let chunk = Swift.max(1, Swift.min(256, (count + workers * 4 - 1) / (workers * 4)))
        let chunks = (count + chunk - 1) / chunk
        withoutActuallyEscaping(transform) { transform in
            withoutActuallyEscaping(makeState) { makeState in
                DispatchQueue.concurrentPerform(iterations: chunks) { part in
                    var state = makeState()
                    for index in (part * chunk)..<Swift.min((part + 1) * chunk, count) { results.set(index, transform(&state, self[index])) }
                }
            }
        }
        return results.takeValues()
    }
}

extension Array where Element: Sendable {
    /// `concurrentMap(state:)` on `threads` threads, more than the cores if asked: for work
    /// that waits on the disk (files not yet in memory), where a core would otherwise sit
    /// idle while its one thread waits. A cold launch of a 100k library from a cold disk took
    /// 17.3 s on two threads and 6.8–9.3 s on sixteen; from memory the two took the same time.
    public func concurrentMap<State, Result: Sendable>(
        threads: Int, state makeState: @escaping @Sendable () -> State, _ transform: @escaping @Sendable (inout State, Element) -> Result
    ) -> [Result] {
        let results = ParallelSlots<Result>(count: count)
        let chunk = 64, chunks = (count + chunk - 1) / chunk
        let next = ChunkCounter()
        let items = self
        @Sendable func work() {
            var state = makeState()
            while let part = next.take(below: chunks) {
                for index in (part * chunk)..<Swift.min((part + 1) * chunk, items.count) { results.set(index, transform(&state, items[index])) }
            }
        }
        let helpers = (0..<Swift.max(0, Swift.min(threads, chunks) - 1)).map { _ in JoinableThread(work) }
        work()
        for helper in helpers { helper.join() }
        return results.takeValues()
    }
}

/// The next chunk of work, handed out once each.
private final class ChunkCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0

    func take(below limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < limit else { return nil }
        next += 1
        return next - 1
    }
}

/// Runs `first` and `second` at once, on two cores where there are two, and returns both
/// results: for serial steps that do not need each other (two walks of the file tree, say).
/// `second` runs on a thread of its own rather than in Dispatch's pool: a `concurrentMap`
/// inside either step then spreads over every core, where nested in the pool's own
/// parallel loop it would run on one.
public func inParallel<A: Sendable, B: Sendable>(_ first: @Sendable () -> A, _ second: @Sendable () -> B) -> (A, B) {
    let secondResult = ParallelSlots<B>(count: 1)
    let firstValue = withoutActuallyEscaping(second) { second in
        // The thread is joined before this returns, so `second` never outlives the call.
        let thread = JoinableThread { secondResult.set(0, second()) }
        let value = first()
        thread.join()
        return value
    }
    return (firstValue, secondResult.takeValues()[0])
}

/// `body` started on a thread of its own, which `join` waits for. The thread holds `body`
/// only while running it. When no thread can be made, `body` runs at once on the caller's.
private final class JoinableThread {
    private final class Job {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    private var thread = pthread_t()
    private var started = false

    init(_ body: @escaping () -> Void) {
        let context = Unmanaged.passRetained(Job(body)).toOpaque()
        started = pthread_create(&thread, nil, { context in
            Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context) == 0
        if !started { Unmanaged<Job>.fromOpaque(context).takeRetainedValue().body() }
    }

    func join() {
        if started { pthread_join(thread, nil) }
    }
}

/// Lets `value` go on another thread: freeing the hundreds of thousands of small objects a
/// cold launch's rows hold takes a tenth of a second nobody needs to wait for. Pass the last
/// reference (`consume`), or the caller's own release may still be the one that frees.
public func releaseInBackground<T: Sendable>(_ value: T) {
    DispatchQueue.global(qos: .utility).async {
        withExtendedLifetime(value) {}
        // What was freed goes back to the system: glibc keeps freed heap pages for the next
        // allocation, so a server kept the 200 MB a first launch's index build had used.
        returnFreedMemoryToTheSystem()
    }
}

/// glibc's `malloc_trim(0)`, found at run time (Swift's Glibc module leaves malloc.h out);
/// nothing where the C library has no such call.
func returnFreedMemoryToTheSystem() {
    typealias MallocTrim = @convention(c) (Int) -> Int32
    guard let symbol = dlsym(nil, "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
}

/// `inParallel` of steps that may throw: both run to the end, then the first error is thrown.
public func inParallel<A: Sendable, B: Sendable>(_ first: @Sendable () throws -> A, _ second: @Sendable () throws -> B) throws -> (A, B) {
    let (a, b) = inParallel({ Result { try first() } }, { Result { try second() } })
    return (try a.get(), try b.get())
}

/// Fixed slots that parallel workers fill by index, each slot written once by one worker;
/// every slot must be set before the values are taken (once) or the slots go. The values are
/// moved out, not copied: copying 150 000 parsed files' results cost a cold launch 0.2 s.
public final class ParallelSlots<Value: Sendable>: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Value>
    private let count: Int
    private var taken = false

    public init(count: Int) {
        self.count = count
        storage = UnsafeMutablePointer<Value>.allocate(capacity: Swift.max(count, 1))
    }

    /// Distinct slots are distinct memory, so workers need no lock; the caller waits for
    /// them all (`concurrentPerform` returns when every iteration has) before taking.
    public func set(_ index: Int, _ value: Value) {
        precondition(index >= 0 && index < count, "slot \(index) of \(count)")
        (storage + index).initialize(to: value)
    }

    /// The values, in slot order, moved out of the slots.
    public func takeValues() -> [Value] {
        precondition(!taken, "the values were taken already")
        taken = true
        return Array(unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0 { buffer.baseAddress!.moveInitialize(from: storage, count: count) }
            initialized = count
        }
    }

    deinit {
        if !taken { storage.deinitialize(count: count) }
        storage.deallocate()
    }
}

/// One growing buffer that file after file is read into, for passes over thousands of files
/// whose bytes are not kept: no allocation, and no fresh pages to fault in, per file. The
/// folder of the last file stays open, and files are opened by name relative to it: the
/// kernel walks one component, not the whole path, for a file beside the last.
public final class ReadBuffer {
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    private var folder: [UInt8] = []
    private var folderDescriptor: Int32 = -1

    public init(capacity: Int = 1 << 16) {
        self.capacity = capacity
        storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        storage.deallocate()
        if folderDescriptor >= 0 { close(folderDescriptor) }
    }

    /// The whole file at `path` (relative to `root`), its bytes valid until the next read,
    /// and its stat, taken before reading; nil when it cannot be opened, is over the size
    /// limit, or comes up short (`LibraryLoader.read` then says which).
    public func read(root: String, path: String) -> (bytes: UnsafeRawBufferPointer, info: stat)? {
        var path = path
        let descriptor = path.withUTF8 { path -> Int32 in
            let slash = path.lastIndex(of: UInt8(ascii: "/"))
            let folderBytes = UnsafeBufferPointer(rebasing: path[..<(slash ?? 0)])
            if folderDescriptor < 0 || !folder.elementsEqual(folderBytes) {
                if folderDescriptor >= 0 { close(folderDescriptor) }
                folder = Array(folderBytes)
                folderDescriptor = open(root + "/" + String(decoding: folderBytes, as: UTF8.self), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                guard folderDescriptor >= 0 else { return -1 }
            }
            let name = UnsafeBufferPointer(rebasing: path[(slash.map { $0 + 1 } ?? 0)...])
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: name.count + 1) { text in
                for (offset, byte) in name.enumerated() { text[offset] = CChar(bitPattern: byte) }
                text[name.count] = 0
                return openat(folderDescriptor, text.baseAddress!, O_RDONLY | O_CLOEXEC)
            }
        }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        guard size <= YAMLSource.maximumFileSize else { return nil }
        if size > capacity {
            storage.deallocate()
            capacity = Swift.max(size, capacity * 2)
            storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        }
        var filled = 0
        while filled < size {
            guard let count = try? FileDescriptor(rawValue: descriptor).read(into: UnsafeMutableRawBufferPointer(start: storage + filled, count: size - filled)),
                count > 0
            else { return nil }
            filled += count
        }
        return (UnsafeRawBufferPointer(start: storage, count: size), info)
    }
}

/// The few files every operation on a library starts from — `rote.yaml`, every deck's
/// `deck.yaml`, one learner's profile — and a deck's entries, read on their own: what an
/// operation that touches one deck needs, without the full load's walk of every file.
public struct LibrarySettings: Sendable {
    public let root: URL
    public let user: String
    public let manifest: LibraryManifest?
    /// Every deck's manifest that reads, by deck name.
    public let decks: [String: DeckManifest]
    /// The learner's profile; nil when there is none or it does not read.
    public let profile: Profile?

    /// Reads the settings of the library at `root`; throws only when there is no library.
    public init(root: URL, user: String) throws {
        let root = root.standardizedFileURL.resolvingSymlinksInPath()
        let manifestURL = root.appending(path: LibraryLocation.manifestName)
        guard let manifestData = FileManager.default.contents(atPath: manifestURL.path) else {
            throw LibraryError(.notALibrary, "\(manifestURL.path): missing, so this is not a Rote library; create one with `rote init \(root.path)`")
        }
        self.root = root
        self.user = user
        manifest = LibraryManifest.decode(manifestData, path: LibraryLocation.manifestName).0
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appending(path: "corpus").path)) ?? []
        decks = LibrarySettings.readDecks(names, root: root)
        profile = LibrarySettings.readProfile(of: user, root: root)
    }

    /// The manifests of the decks with these names that read (`corpus/<name>/deck.yaml`).
    public static func readDecks(_ names: [String], root: URL) -> [String: DeckManifest] {
        var decks: [String: DeckManifest] = [:]
        for name in names {
            let path = "corpus/\(name)/deck.yaml"
            guard case .success(.deckManifest) = LibraryFile.classify(path),
                let data = FileManager.default.contents(atPath: root.appending(path: path).path),
                let manifest = DeckManifest.decode(data, path: path).0
            else { continue }
            decks[name] = manifest
        }
        return decks
    }

    /// A learner's profile, when it reads.
    public static func readProfile(of user: String, root: URL) -> Profile? {
        let path = LibraryPaths(user: user).profile
        return FileManager.default.contents(atPath: root.appending(path: path).path).flatMap { Profile.decode($0, path: path).0 }
    }

    /// Deck names in study order, as `rote.yaml` lists them and then the rest by name.
    public var deckOrder: [String] { LoadedLibrary.deckOrder(manifest: manifest, decks: decks) }

    /// A deck's entries in study order, read from its own folder.
    public func entries(inDeck deck: String) -> [Entry] { read(deck: deck).entries }

    /// A deck's entries in study order, and the errors of its entry files that gave none.
    public func read(deck: String) -> (entries: [Entry], problems: [Diagnostic]) {
        let loader = LibraryLoader(users: .only(user), includeSessions: false)
        let decks = decks, root = root
        let results = loader.listFiles(root, under: ["corpus/\(deck)"]).0.concurrentMap { path -> (Entry?, [Diagnostic]) in
            guard let parsed = loader.parse(root: root, path: path, decks: decks) else { return (nil, []) }
            guard case let .entry(entry)? = parsed.value else { return (nil, parsed.problems.filter { $0.severity == .error }) }
            return (entry, [])
        }
        let entries = LibraryLoader.sortedInStudyOrder(results.compactMap(\.0), deckOrder: deckOrder)
        return (entries, results.flatMap(\.1).sorted(by: Diagnostic.fileOrder))
    }
}
