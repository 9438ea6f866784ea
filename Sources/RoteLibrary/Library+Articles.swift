public import Foundation
import Launch
public import RoteModel
import RoteStore
import Study

extension Library {
    /// Where unsaved articles stay: device-local, never committed.
    public static let generatedFolder = ".git/rote/generated"

    /// Composes a reading text for the learner's rank (`ArticleComposer`) and keeps it on this
    /// device only, in `.git/rote/generated/<id>.yaml`. Only the candidates nearest the rank
    /// are read from their files. Nil when no unknown word near the rank has an example.
    public func composeArticle(now: Date = Date()) throws -> GeneratedArticle? {
        try LibraryError.surfacing {
            try requireProfile()
            let launch = try launch()
            let index = launch.index
            let lexicalRank = profile?.lexicalRank
            var unknown: [(Int, Int)] = []
            var known: [(Int, Int)] = []
            for number in 0..<index.entryCount {
                guard let rank = index.rank(ofEntry: number), decks[index.deck(ofEntry: number)]?.kind == .vocabulary
                else {
                    continue
                }
                switch index.status(ofEntry: number) {
                case .review: known.append((number, rank))
                case .new, .learning, .relearning: unknown.append((number, rank))
                case .ignored, .suspended: continue
                }
            }
            let centre = lexicalRank ?? known.map(\.1).max() ?? unknown.map(\.1).min() ?? 1
            let nearestUnknown = unknown.sorted {
                (ArticleComposer.distance($0.1, from: centre), $0.0) < (
                    ArticleComposer.distance($1.1, from: centre), $1.0
                )
            }.prefix(40)
            let highestKnown = known.sorted { ($0.1, $0.0) > ($1.1, $1.0) }.prefix(40)
            let candidates = (nearestUnknown.map { ($0, false) } + highestKnown.map { ($0, true) }).compactMap {
                pair -> ArticleComposer.Candidate? in
                let ((number, rank), isKnown) = pair
                guard let entry = launch.entry(number), case let .vocabulary(word) = entry.content else { return nil }
                return ArticleComposer.Candidate(
                    id: entry.id, word: word.word, rank: rank, known: isKnown,
                    examples: word.examples.map { VocabularyEntry.Example.plain($0.en) })
            }
            guard let article = ArticleComposer.compose(candidates, lexicalRank: lexicalRank, now: now) else {
                return nil
            }
            try AtomicFile.write(
                Data(article.render().utf8), at: "\(Self.generatedFolder)/\(article.id).yaml", in: root)
            return article
        }
    }

    /// The articles composed on this device and not saved, newest first.
    public func generatedArticles() -> [GeneratedArticle] {
        let folder = root.appending(path: Self.generatedFolder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.compactMap { name in
            FileManager.default.contents(atPath: folder.appending(path: name).path).flatMap {
                GeneratedArticle.decode($0, path: name).0
            }
        }.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
    }

    /// `rote article save ID`: commits the unsaved article `id` as
    /// `profiles/<user>/saved/<id>.yaml`, an immutable file that syncs like a session.
    public func saveArticle(id: String) throws -> (article: GeneratedArticle, path: String) {
        try requireProfile()
        guard Slug.isValidSegment(id) else {
            throw LibraryError(.notFound, "'\(id)' is not an article id; `rote article list` shows them")
        }
        let local = "\(Self.generatedFolder)/\(id).yaml"
        let path = "\(paths.saved)/\(id).yaml"
        if FileManager.default.fileExists(atPath: root.appending(path: path).path) {
            throw LibraryError(.alreadyExists, "article \(id) is saved already (\(path))")
        }
        guard let data = FileManager.default.contents(atPath: root.appending(path: local).path) else {
            throw LibraryError(
                .notFound,
                "no unsaved article '\(id)' on this device; `rote article list` shows them, `rote article` makes one")
        }
        let article = try ReadBeforeRewrite.decode(GeneratedArticle.self, data, at: local)
        let saved = try write(purpose: "article save") { git in
            try git.apply(
                changes: [path: Data(article.render().utf8)],
                message: CommitMessage(subject: "Save article: \(article.title)"))
            return (article, path)
        }
        // Saved, it is no longer one of this device's unsaved articles.
        try? AtomicFile.remove(at: local, in: root)
        return saved
    }
}
