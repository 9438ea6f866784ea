package import Foundation
import Git
import Parallelism
import SystemPackage

#if canImport(Glibc)
import Glibc
package import RoteModel
#endif

/// Reads a library's files into a `LoadedLibrary`, parsing on every core.
package struct LibraryLoader: Sendable {
    /// Whose learner files to read.
    package enum Users: Sendable, Equatable {
        case all
        case only(String)
    }

    package var users: Users
    /// Session files are history, needed by `check`, `log` and stats, not by study.
    package var includeSessions: Bool

    package init(users: Users = .all, includeSessions: Bool = true) {
        self.users = users
        self.includeSessions = includeSessions
    }

    /// Loads the library at `root`. Throws only when there is no library at all; every
    /// problem with a file is a diagnostic in the result.
    package func load(_ root: URL) throws -> LoadedLibrary {
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
    package func list(_ root: URL, listed: [String]? = nil) throws -> (LoadedLibrary, [(String, LibraryFile)]) {
        let root = root.standardizedFileURL.resolvingSymlinksInPath()
        var library = LoadedLibrary(root: root)
        let manifestURL = root.appending(path: LibraryLocation.manifestName)
        guard let manifestData = FileManager.default.contents(atPath: manifestURL.path) else {
            throw LibraryError(
                .notALibrary,
                "\(manifestURL.path): missing, so this is not a Rote library; create one with `rote init \(root.path)`")
        }
        let (manifest, manifestProblems) = LibraryManifest.decode(manifestData, path: LibraryLocation.manifestName)
        library.manifest = manifest
        library.diagnostics += manifestProblems
        if !Repository.isWorkTree(root) {
            library.diagnostics.append(
                .error(
                    ".git", nil,
                    "\(root.path) is not a git repository, so it cannot sync or keep history; run `git init` there and commit, or create a library with `rote init`"
                ))
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
    package static func collect(_ result: ParseResult, into library: inout LoadedLibrary) {
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
    package static func sortedInStudyOrder(_ entries: [Entry], deckOrder: [String]) -> [Entry] {
        sortedInStudyOrder(entries, deckOrder: deckOrder) { ($0.deck, $0.sortKey, $0.id) }
    }

    /// Anything that stands for entries, in study order by the entry `key` gives.
    package static func sortedInStudyOrder<Item>(
        _ items: [Item], deckOrder: [String], key: (Item) -> (deck: String, sortKey: Int, id: String)
    ) -> [Item] {
        let order = Dictionary(deckOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let keys = items.map { item in
            let key = key(item)
            return (deck: order[key.deck] ?? Int.max, sortKey: key.sortKey, id: key.id)
        }
        return keys.indices.sorted { precedes(keys[$0], keys[$1]) }.map { items[$0] }
    }

    /// Study order on keys whose deck is already its place in the deck order.
    @inline(__always)
    static func precedes(_ lhs: (deck: Int, sortKey: Int, id: String), _ rhs: (deck: Int, sortKey: Int, id: String))
        -> Bool
    {
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
    package func listFiles(_ root: URL, under folders: [String] = [LibraryPaths.corpus, LibraryPaths.profiles]) -> (
        [String], [Diagnostic]
    ) {
        var paths: [String] = []
        var problems: [Diagnostic] = []
        let rootPath = root.path.hasSuffix("/") ? String(root.path.dropLast()) : root.path
        func walk(_ relative: String) {
            guard let directory = opendir(rootPath + "/" + relative) else { return }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
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
                    type =
                        (info.st_mode & S_IFMT) == S_IFDIR
                        ? DT_DIR : (info.st_mode & S_IFMT) == S_IFLNK ? DT_LNK : DT_REG
                }
                switch type {
                case DT_DIR:
                    walk(path)
                case DT_LNK:
                    switch Self.link(at: path, root: rootPath) {
                    case let .outside(target):
                        problems.append(
                            .error(
                                path, nil,
                                "symbolic link leads outside the library (to \(target)); copy the file in instead"))
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
    package enum Link: Equatable, Sendable {
        case file
        case notAFile
        case outside(target: String)
    }

    /// The link at `path`, relative to the library at `root`.
    package static func link(at path: String, root: String) -> Link {
        let target = URL(fileURLWithPath: root + "/" + path).resolvingSymlinksInPath().standardizedFileURL.path
        let root = URL(fileURLWithPath: root).resolvingSymlinksInPath().standardizedFileURL.path
        guard target.hasPrefix(root + "/") else { return .outside(target: target) }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory) && !isDirectory.boolValue
            ? .file : .notAFile
    }

    /// The file's bytes, refusing one over the size limit before reading it. One open, one
    /// fstat and one read: URL resource values cost more than parsing the file.
    package func read(_ root: URL, _ path: String, _ problems: inout [Diagnostic]) -> Data? {
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
            problems.append(
                .error(
                    path, nil,
                    "file is \(size / 1_048_576) MiB; Rote reads files up to \(YAMLSource.maximumFileSize / 1_048_576) MiB — split it or move it out of the library"
                ))
            return nil
        }
        var data = Data(count: size)
        var filled = 0
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            while filled < size {
                guard
                    let count = try? FileDescriptor(rawValue: descriptor).read(
                        into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<size])),
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

    package enum ParsedValue: Sendable {
        case entry(Entry)
        case domain(String, SkillDomain)
        case skill(String, Skill)
        case profile(String, Profile)
        case progress(String, ProgressFile)
        case session(String, SessionFile)
        case letters(String, LetterAttemptsFile)
    }

    package struct ParseResult: Sendable {
        package var value: ParsedValue?
        package var problems: [Diagnostic]

        package init(value: ParsedValue?, problems: [Diagnostic]) {
            self.value = value
            self.problems = problems
        }
    }

    func parseInParallel(root: URL, files: [(String, LibraryFile)], decks: [String: DeckManifest]) -> [ParseResult] {
        files.concurrentMap { parse(root: root, path: $0.0, kind: $0.1, decks: decks) }
    }

    /// Reads and parses the library file at `path`, classified by its path; nil for a path
    /// that is no library file.
    package func parse(root: URL, path: String, decks: [String: DeckManifest]) -> ParseResult? {
        guard case let .success(kind) = LibraryFile.classify(path) else { return nil }
        return parse(root: root, path: path, kind: kind, decks: decks)
    }

    /// Reads and parses one library file, as a full load does; `decks` gives entries their format.
    package func parse(root: URL, path: String, kind: LibraryFile, decks: [String: DeckManifest]) -> ParseResult {
        var problems: [Diagnostic] = []
        guard let data = read(root, path, &problems) else { return ParseResult(value: nil, problems: problems) }
        return parse(data, path: path, kind: kind, decks: decks)
    }

    /// Parses bytes already read from the library file at `path`.
    package func parse(_ data: Data, path: String, kind: LibraryFile, decks: [String: DeckManifest]) -> ParseResult {
        var problems: [Diagnostic] = []
        switch kind {
        case .manifest, .deckManifest, .saved:
            return ParseResult(value: nil, problems: [])
        case let .entry(deck, id):
            guard let manifest = decks[deck] else {
                return ParseResult(
                    value: nil,
                    problems: [
                        .error(
                            path, nil,
                            "deck '\(deck)' has no readable \(LibraryPaths.deckManifest(deck)), so its entries cannot be read"
                        )
                    ])
            }
            if manifest.kind == .skills {
                let depth = id.split(separator: "/").count
                if depth != 4 {
                    return ParseResult(
                        value: nil,
                        problems: [
                            .error(
                                path, nil,
                                "skills questions live at \(LibraryPaths.content(deck))/<domain>/<skill>/<question>.yaml"
                            )
                        ])
                }
                for segment in id.split(separator: "/").dropFirst() where !Slug.isValidSkillSlug(segment) {
                    return ParseResult(
                        value: nil,
                        problems: [
                            .error(
                                path, nil,
                                "slug '\(segment)' breaks the skills rule ^[a-z0-9_]+$; rename it with underscores")
                        ])
                }
            }
            let (content, found) = EntryContent.decode(data, kind: manifest.kind, path: path)
            return ParseResult(
                value: content.map { .entry(Entry(id: id, deck: deck, path: path, content: $0)) }, problems: found)
        case let .domain(deck, domain):
            let (value, found) = SkillDomain.decode(data, path: path)
            problems += found
            if !Slug.isValidSkillSlug(domain) {
                problems.append(
                    .error(
                        path, nil,
                        "slug '\(domain)' breaks the skills rule ^[a-z0-9_]+$; rename the folder with underscores"))
            }
            return ParseResult(value: value.map { .domain("\(deck)/\(domain)", $0) }, problems: problems)
        case let .skill(deck, domain, skill):
            let (value, found) = Skill.decode(data, path: path)
            problems += found
            if !Slug.isValidSkillSlug(skill) {
                problems.append(
                    .error(
                        path, nil,
                        "slug '\(skill)' breaks the skills rule ^[a-z0-9_]+$; rename the folder with underscores"))
            }
            return ParseResult(value: value.map { .skill("\(deck)/\(domain)/\(skill)", $0) }, problems: problems)
        case let .profile(user):
            let (value, found) = Profile.decode(data, path: path)
            problems += found
            if let value, value.user != user {
                problems.append(
                    .error(
                        path, nil,
                        "profile says user '\(value.user)' but lives in \(LibraryPaths(user: user).folder)/; make them match"
                    ))
            }
            return ParseResult(value: value.map { .profile(user, $0) }, problems: problems)
        case let .progress(user, entry):
            let (value, found) = ProgressFile.decode(data, path: path)
            problems += found
            if let value, value.entry != entry {
                problems.append(
                    .error(
                        path, nil,
                        "progress file is for '\(value.entry)' but its path says '\(entry)'; move it or fix 'entry'"))
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
                problems.append(
                    .error(
                        path, nil,
                        "letter attempts are for '\(value.letter)' but the path says '\(letter)'; move the file or fix 'letter'"
                    ))
                return ParseResult(value: nil, problems: problems)
            }
            return ParseResult(value: value.map { .letters(user, $0) }, problems: problems)
        }
    }
}
