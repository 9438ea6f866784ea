public import Foundation
public import Git
import RoteModel
import RoteStore

/// Decks that come from a publisher's git repository (seed 000's content updates and batches):
/// `add` imports one, `status` says which have a newer version upstream, `update` three-way
/// merges the publisher's new version into the local copy so the learner's own edits survive.
/// Updates are offered, never forced: nothing changes until `update` is run.
public struct PublisherDecks {
    public let root: URL
    public let user: String
    public var credentials: Credentials
    let now: @Sendable () -> Date

    public init(
        root: URL, user: String, credentials: Credentials = Credentials(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.root = root
        self.user = user
        self.credentials = credentials
        self.now = now
    }

    // MARK: - add

    public struct Added: Sendable {
        public var name: String
        public var version: String
        public var commit: String
        public var files: Int
    }

    /// Imports the deck at `path` of the publisher's repository at `url` (at `ref`, else its
    /// default branch) into `corpus/<name>/`, as one commit, and records where it came from in
    /// its deck.yaml.
    public func add(url: String, path: String? = nil, name: String? = nil, ref: String? = nil) throws -> Added {
        // upstream.url is committed in deck.yaml and travels with every clone of the library.
        guard RemoteURL.redactingUserinfo(url) == url else {
            throw PublisherError(
                .credentialInURL,
                "the address \(url) holds a user name or password, which `deck add` would write into the deck's deck.yaml for everyone who shares this library; nothing was added — add the deck by its address without them and let a git credential helper supply the password (`git config --global credential.helper ...`)"
            )
        }
        let path = path.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "/")) }.flatMap {
            $0.isEmpty ? nil : $0
        }
        let name =
            name
            ?? Slug.make(
                from: path.map { String($0.split(separator: "/").last!) } ?? PublisherDecks.repositoryName(url))
        guard Slug.isValidSegment(name) else {
            throw PublisherError(
                .invalidName,
                "'\(name)' is not a valid deck name; use lowercase letters, digits, _ . - (e.g. --as \(Slug.make(from: name)))"
            )
        }
        let writer = try LibraryTransaction(
            root: root, user: user, purpose: "deck add \(RemoteURL.redactingUserinfo(url))", now: now)
        defer { withExtendedLifetime(writer) {} }
        let library = try LibrarySettings(root: root, user: user)
        if let existing = library.decks[name] {
            throw PublisherError(
                .deckExists,
                "deck '\(name)' already exists (\(LibraryPaths.deckManifest(name)), '\(existing.title)'); nothing was added — choose another name with --as NAME"
            )
        }
        if FileManager.default.fileExists(atPath: root.appending(path: LibraryPaths.content(name)).path) {
            throw PublisherError(
                .deckExists,
                "\(LibraryPaths.content(name))/ already exists; nothing was added — choose another name with --as NAME")
        }
        let repository = try PublisherCache.refreshed(
            root: root, url: url, credentials: credentials, purpose: "deck add \(RemoteURL.redactingUserinfo(url))")
        let commit = try resolve(ref, in: repository, url: url)
        let snapshot = try PublisherSnapshot.read(
            repository, commit: commit, path: path, url: url, label: ref ?? "default branch")
        let upstream = DeckManifest.Upstream(
            url: url, path: path, ref: ref, commit: commit.hex, version: snapshot.manifest.version)
        var changes: [String: Data?] = [:]
        for (file, data) in snapshot.files { changes[LibraryPaths.content(name, file)] = data }
        changes[LibraryPaths.deckManifest(name)] = UpstreamBlock.write(upstream, into: snapshot.manifestText)
        if let stamped = ContentVersions.profileSeeing(
            [name: snapshot.manifest.version], user: user, root: root, now: now())
        {
            changes[stamped.path] = stamped.data
        }
        try writer.apply(
            changes: changes,
            message: CommitMessage(
                subject: "Add deck \(name) \(snapshot.manifest.version) from \(RemoteURL.redactingUserinfo(url))",
                body:
                    "\(snapshot.files.count) file\(snapshot.files.count == 1 ? "" : "s") of '\(snapshot.manifest.title)'\(path.map { " (\($0))" } ?? "") at \(ref.map { "\($0), " } ?? "")commit \(commit.hex)."
            ))
        return Added(name: name, version: snapshot.manifest.version, commit: commit.hex, files: snapshot.files.count)
    }

    // MARK: - status

    public struct Status: Sendable, Equatable {
        public enum State: Sendable, Equatable {
            case upToDate
            /// A newer version: its version, the tag or branch it is at, the commit, and the
            /// changelog lines between the two versions.
            case newer(version: String, ref: String?, commit: String, changelog: [String])
            /// New commits without a new version number.
            case changed(commit: String)
            case unreachable(String)
        }

        public var deck: String
        public var version: String
        public var url: String
        public var state: State
    }

    /// Every publisher deck's state against its publisher, fetching each once.
    public func status() throws -> [Status] {
        let library = try LibrarySettings(root: root, user: user)
        var result: [Status] = []
        for name in library.decks.keys.sorted() {
            guard let upstream = library.decks[name]?.upstream else { continue }
            let local = library.decks[name]!.version
            do {
                let repository = try PublisherCache.refreshed(
                    root: root, url: upstream.url, credentials: credentials, purpose: "deck status")
                let (candidate, candidateRef) = try newest(upstream, in: repository)
                let state: Status.State
                if candidate.commit.hex == upstream.commit {
                    state = .upToDate
                } else if let theirs = SemanticVersion(candidate.manifest.version),
                    let ours = SemanticVersion(upstream.version), theirs > ours
                {
                    state = .newer(
                        version: candidate.manifest.version, ref: candidateRef, commit: candidate.commit.hex,
                        changelog: PublisherSnapshot.changelog(
                            repository, commit: candidate.commit, path: upstream.path,
                            newer: candidate.manifest.version, older: upstream.version))
                } else if candidate.manifest.version == upstream.version {
                    state = .changed(commit: candidate.commit.hex)
                } else {
                    state = .upToDate
                }
                result.append(Status(deck: name, version: local, url: upstream.url, state: state))
            } catch let error as PublisherError {
                result.append(Status(deck: name, version: local, url: upstream.url, state: .unreachable(error.message)))
            }
        }
        return result
    }

    /// What an update would move to: for a deck that follows a branch (or the default one),
    /// the branch's head; for one pinned to a tag, the tag whose deck.yaml has the highest
    /// version (tags named after versions, `v1.2.0` or `1.2.0`, are the usual way to
    /// publish).
    func newest(_ upstream: DeckManifest.Upstream, in repository: Repository) throws -> (PublisherSnapshot, String?) {
        if let ref = upstream.ref, try repository.resolveCommit("refs/heads/\(ref)") == nil {
            var best: (PublisherSnapshot, String)?
            for tag in try repository.tagNames() {
                guard let commit = try repository.resolveCommit("refs/tags/\(tag)"),
                    let snapshot = try? PublisherSnapshot.read(
                        repository, commit: commit, path: upstream.path, url: upstream.url, label: tag),
                    let version = SemanticVersion(snapshot.manifest.version)
                else { continue }
                if let current = best, let bestVersion = SemanticVersion(current.0.manifest.version),
                    bestVersion >= version
                {
                    continue
                }
                best = (snapshot, tag)
            }
            if let best { return best }
        }
        let commit = try resolve(upstream.ref, in: repository, url: upstream.url)
        return (
            try PublisherSnapshot.read(
                repository, commit: commit, path: upstream.path, url: upstream.url,
                label: upstream.ref ?? "default branch"), upstream.ref
        )
    }

    // MARK: - update

    public struct Updated: Sendable, Equatable {
        public var deck: String
        public var from: String
        public var to: String
        /// Files taken from the publisher as they are.
        public var taken: [String]
        /// Files changed on both sides and merged line by line.
        public var merged: [String]
        /// Files where the learner's edits are kept and the publisher changed nothing.
        public var keptLocal: [String]
        /// Conflicting hunks settled by `prefer`.
        public var settled: [String]
        public var commit: String?
    }

    /// Which side wins lines changed on both sides; `.none` refuses the update instead.
    public enum Preference: Sendable {
        case none, mine, theirs
    }

    /// Three-way merges the publisher's newer version into `deck` — base: the commit imported
    /// last; ours: the deck as committed here; theirs: the publisher's version at `ref` (else
    /// the newest, as `status` reports it) — and commits the result. Conflicts abort the
    /// update with every conflict's file and line, leaving the library as it was, unless
    /// `prefer` says which side wins.
    public func update(deck: String, ref: String? = nil, prefer: Preference = .none) throws -> Updated {
        let writer = try LibraryTransaction(root: root, user: user, purpose: "deck update \(deck)", now: now)
        defer { withExtendedLifetime(writer) {} }
        let git = writer
        let library = try LibrarySettings(root: root, user: user)
        guard let manifest = library.decks[deck] else {
            let known = library.decks.keys.sorted().joined(separator: ", ")
            throw PublisherError(.unknownDeck, "no deck '\(deck)' in this library (decks: \(known))")
        }
        guard let upstream = manifest.upstream else {
            throw PublisherError(
                .notAPublisherDeck,
                "deck '\(deck)' was not added from a publisher (its deck.yaml has no upstream:), so there is nothing to update it from; add publisher decks with `rote deck add URL`"
            )
        }
        let pending = try git.pendingPaths().filter { $0.hasPrefix(LibraryPaths.content(deck) + "/") }
        guard pending.isEmpty else {
            throw PublisherError(
                .pendingEdits,
                "\(LibraryPaths.content(deck))/ has uncommitted edits (\(pending.prefix(3).joined(separator: ", "))\(pending.count > 3 ? ", …" : "")); commit them (`git commit` or `rote sync`) or undo them, then update"
            )
        }
        let repository = try PublisherCache.refreshed(
            root: root, url: upstream.url, credentials: credentials, purpose: "deck update \(deck)")
        let theirs: PublisherSnapshot
        let newRef: String?
        if let ref {
            theirs = try PublisherSnapshot.read(
                repository, commit: try resolve(ref, in: repository, url: upstream.url), path: upstream.path,
                url: upstream.url, label: ref)
            newRef = ref
        } else {
            (theirs, newRef) = try newest(upstream, in: repository)
        }
        let unchanged = Updated(
            deck: deck, from: upstream.version, to: upstream.version, taken: [], merged: [], keptLocal: [], settled: [],
            commit: nil)
        if theirs.commit.hex == upstream.commit { return unchanged }
        guard let baseID = ObjectID(hex: upstream.commit), (try? repository.commit(baseID)) != nil else {
            throw PublisherError(
                .missingBase,
                "the publisher's repository no longer has commit \(upstream.commit), the version of '\(deck)' imported last (its history was rewritten), so a three-way merge is impossible; add the deck again under another name with `rote deck add \(upstream.url) --as NAME` and carry your edits over"
            )
        }
        let base = try PublisherSnapshot.read(
            repository, commit: baseID, path: upstream.path, url: upstream.url,
            label: "commit \(upstream.commit.prefix(10))")
        var baseFiles = base.files
        var theirFiles = theirs.files
        baseFiles["deck.yaml"] = UpstreamBlock.strip(base.manifestText)
        theirFiles["deck.yaml"] = UpstreamBlock.strip(theirs.manifestText)
        var ourFiles = localFiles(deck)
        if let text = ourFiles["deck.yaml"] { ourFiles["deck.yaml"] = UpstreamBlock.strip(text) }

        let merge = ThreeWayDeckMerge.merge(base: baseFiles, ours: ourFiles, theirs: theirFiles, prefer: prefer)
        if !merge.conflicts.isEmpty {
            let lines = merge.conflicts.map {
                "\(LibraryPaths.content(deck))/\($0.path):\($0.line): conflict: \($0.message)"
            }
            throw PublisherError(
                .conflicts,
                """
                updating '\(deck)' from \(upstream.version) to \(theirs.manifest.version) conflicts with your edits; nothing was changed:
                \(lines.joined(separator: "\n"))
                Keep your lines with `rote deck update \(deck) --prefer mine`, take the publisher's with `--prefer theirs`, or edit your copy so it no longer touches those lines, commit, and update again.
                """)
        }
        var result = merge.files
        let deckText = result["deck.yaml"] ?? theirFiles["deck.yaml"] ?? Data()
        let newUpstream = DeckManifest.Upstream(
            url: upstream.url, path: upstream.path, ref: newRef, commit: theirs.commit.hex,
            version: theirs.manifest.version)
        result["deck.yaml"] = UpstreamBlock.write(newUpstream, into: deckText)
        let (checked, problems) = DeckManifest.decode(result["deck.yaml"]!, path: LibraryPaths.deckManifest(deck))
        guard checked != nil else {
            throw PublisherError(
                .conflicts,
                "the merged \(LibraryPaths.deckManifest(deck)) would not load, so nothing was changed:\n"
                    + problems.map(\.description).joined(separator: "\n"))
        }
        var changes: [String: Data?] = [:]
        for path in Set(ourFiles.keys).union(result.keys) {
            let current = FileManager.default.contents(
                atPath: root.appending(path: LibraryPaths.content(deck, path)).path)
            if current != result[path] { changes.updateValue(result[path], forKey: LibraryPaths.content(deck, path)) }
        }
        let commit = try git.apply(
            changes: changes,
            message: CommitMessage(
                subject:
                    "Update deck \(deck) \(upstream.version) → \(theirs.manifest.version) from \(RemoteURL.redactingUserinfo(upstream.url))",
                body: """
                    Three-way merge of the publisher's \(newRef.map { "\($0), " } ?? "")commit \(theirs.commit.hex)
                    with this library's copy (base: \(upstream.commit)).
                    \(merge.summary)
                    """))
        return Updated(
            deck: deck, from: upstream.version, to: theirs.manifest.version, taken: merge.taken, merged: merge.merged,
            keptLocal: merge.keptLocal, settled: merge.settled, commit: commit?.hex)
    }

    // MARK: - Helpers

    /// Every file of the deck's folder in the work tree, relative to it (hidden files left out).
    func localFiles(_ deck: String) -> [String: Data] {
        let folder = root.appending(path: LibraryPaths.content(deck)).standardizedFileURL.resolvingSymlinksInPath()
        var files: [String: Data] = [:]
        guard
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return files }
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                let data = FileManager.default.contents(atPath: url.path)
            else { continue }
            let relative = String(
                url.standardizedFileURL.resolvingSymlinksInPath().path.dropFirst(folder.path.count + 1))
            files[relative] = data
        }
        return files
    }

    func resolve(_ ref: String?, in repository: Repository, url: String) throws -> ObjectID {
        if let ref {
            for candidate in ["refs/tags/\(ref)", "refs/heads/\(ref)", ref] {
                if let id = try repository.resolveCommit(candidate) { return id }
            }
            let tags = (try? repository.tagNames()) ?? []
            throw PublisherError(
                .unknownRef,
                "the publisher's repository \(url) has no tag, branch or commit '\(ref)'"
                    + (tags.isEmpty ? "" : "; its tags: \(tags.suffix(10).joined(separator: ", "))"))
        }
        guard let head = try repository.resolveCommit("HEAD") else {
            throw PublisherError(.noDeck, "the publisher's repository \(url) has no commits on its default branch")
        }
        return head
    }

    /// `https://example.org/decks/spanish.git` → `spanish`.
    static func repositoryName(_ url: String) -> String {
        var last = url.split(whereSeparator: { $0 == "/" || $0 == ":" }).last.map(String.init) ?? "deck"
        if last.hasSuffix(".git") { last.removeLast(4) }
        return last
    }
}
