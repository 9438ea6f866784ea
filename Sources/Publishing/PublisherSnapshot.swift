import Foundation
import Git
import RoteModel

/// A deck's files as the publisher has them at one commit: paths relative to the deck folder.
struct PublisherSnapshot {
    var commit: ObjectID
    var files: [String: Data]
    var manifest: DeckManifest
    /// The raw text of the publisher's deck.yaml (comments and layout kept).
    var manifestText: Data

    /// Reads the deck at `path` (nil: the repository's root) of `commit`.
    static func read(_ repository: Repository, commit: ObjectID, path: String?, url: String, label: String) throws
        -> PublisherSnapshot
    {
        let tree = try repository.commit(commit).tree()
        let all = try tree.files()
        let prefix = path.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? ""
        var files: [String: Data] = [:]
        for file in all where file.path.hasPrefix(prefix) {
            let relative = String(file.path.dropFirst(prefix.count))
            let segments = relative.split(separator: "/", omittingEmptySubsequences: false)
            guard !relative.hasPrefix("/"), !segments.contains(where: { $0 == ".." || $0 == ".git" || $0.isEmpty })
            else {
                throw PublisherError(
                    .unsafePath,
                    "the publisher's repository \(url) holds '\(file.path)', a path that would land outside the deck folder; refusing it"
                )
            }
            files[relative] = try repository.blob(file.id)
        }
        guard let text = files["deck.yaml"] else {
            var decks: [String] = []
            for file in all where file.path == "deck.yaml" || file.path.hasSuffix("/deck.yaml") {
                decks.append(file.path == "deck.yaml" ? "(the root)" : String(file.path.dropLast(10)))
            }
            let place = path.map { "at '\($0)'" } ?? "at its root"
            let hint =
                decks.isEmpty
                ? "it holds no deck.yaml at all"
                : "decks there: \(decks.joined(separator: ", ")); choose one with --path"
            throw PublisherError(
                .noDeck, "the publisher's repository \(url) has no deck.yaml \(place) (\(label)); \(hint)")
        }
        let (manifest, problems) = DeckManifest.decode(text, path: "\(path.map { $0 + "/" } ?? "")deck.yaml")
        guard let manifest else {
            throw PublisherError(
                .noDeck,
                "the publisher's deck.yaml (\(url), \(label)) cannot be read:\n"
                    + problems.map(\.description).joined(separator: "\n"))
        }
        return PublisherSnapshot(commit: commit, files: files, manifest: manifest, manifestText: text)
    }

    /// The part of the publisher's changelog between `newer` and `older` (the lines under
    /// `newer`'s heading, down to `older`'s), from `CHANGELOG.md` in the deck folder or the
    /// repository root; empty when there is none.
    static func changelog(_ repository: Repository, commit: ObjectID, path: String?, newer: String, older: String)
        -> [String]
    {
        guard let tree = try? repository.commit(commit).tree() else { return [] }
        let names = ["CHANGELOG.md", "CHANGELOG", "CHANGES.md", "changelog.md"]
        let folders = [path.map { $0 + "/" } ?? "", ""]
        for folder in folders {
            for name in names {
                guard let id = tree.entryID(atPath: folder + name), let data = try? repository.blob(id),
                    let text = String(data: data, encoding: .utf8)
                else { continue }
                var lines: [String] = []
                var inside = false
                for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                    let isHeading = line.hasPrefix("#")
                    if isHeading, line.contains(older) { break }
                    if isHeading, line.contains(newer) { inside = true }
                    if inside { lines.append(line) }
                }
                while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
                if !lines.isEmpty { return Array(lines.prefix(40)) }
            }
        }
        return []
    }
}

/// The `upstream:` block Rote keeps at the end of a publisher deck's deck.yaml. It is added
/// and replaced as text, so the publisher's comments and layout stay, and it is left out of
/// the three-way merge so it never conflicts with the publisher's own lines.
enum UpstreamBlock {
    static let comment =
        "# Written by `rote deck add/update`: where this deck comes from; the commit is the base of the next update."

    /// `text` without the block (and its comment).
    static func strip(_ text: Data) -> Data {
        guard let string = String(data: text, encoding: .utf8) else { return text }
        var lines = string.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("upstream:") }) else { return text }
        var end = start + 1
        while end < lines.count, lines[end].hasPrefix(" ") || lines[end].hasPrefix("\t") { end += 1 }
        var from = start
        if from > 0, lines[from - 1] == comment { from -= 1 }
        lines.removeSubrange(from..<end)
        return Data(lines.joined(separator: "\n").utf8)
    }

    /// `text` with its block replaced by one for `upstream`.
    static func write(_ upstream: DeckManifest.Upstream, into text: Data) -> Data {
        var string = String(decoding: strip(text), as: UTF8.self)
        while string.hasSuffix("\n\n") { string.removeLast() }
        if !string.isEmpty, !string.hasSuffix("\n") { string += "\n" }
        string += comment + "\n" + YAMLValue.map([("upstream", upstream.yamlValue)], flow: false).renderDocument()
        return Data(string.utf8)
    }
}
