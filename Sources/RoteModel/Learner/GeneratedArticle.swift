public import Foundation

/// Seed 002's `GeneratedContent`: a short reading text Rote composed for the learner's rank.
///
/// Unsaved, it lives only on the device, in `.git/rote/generated/<id>.yaml`; `rote article
/// save ID` commits it as `profiles/<user>/saved/<id>.yaml`, an immutable file that syncs as
/// both sides' files kept (`docs/format.md`).
public struct GeneratedArticle: YAMLCodable, Equatable {
    public var id: String
    public var title: String
    public var createdAt: Date
    /// The lexical rank the text was aimed at.
    public var targetRank: Int?
    /// Entries the text teaches: words the learner does not know yet.
    public var targets: [String]
    /// Entries of words the learner knows, whose sentences carry the text.
    public var known: [String]
    /// How the text was made, in words, for the learner to read.
    public var madeBy: String
    public var body: String

    public init(
        id: String, title: String, createdAt: Date, targetRank: Int?, targets: [String], known: [String],
        madeBy: String, body: String
    ) {
        self.id = id
        self.title = title
        self.createdAt = createdAt
        self.targetRank = targetRank
        self.targets = targets
        self.known = known
        self.madeBy = madeBy
        self.body = body
    }

    public init?(reading reader: inout MappingReader) {
        let id = reader.string("id", required: true)
        let title = reader.string("title", required: true)
        let createdAt = reader.date("created_at", required: true)
        targetRank = reader.int("target_rank")
        targets = reader.strings("targets") ?? []
        known = reader.strings("known") ?? []
        let madeBy = reader.string("made_by", required: true)
        let body = reader.string("body", required: true)
        guard let id, let title, let createdAt, let madeBy, let body else { return nil }
        self.id = id
        self.title = title
        self.createdAt = createdAt
        self.madeBy = madeBy
        self.body = body
    }

    public var yamlValue: YAMLValue {
        var map = YAMLMapBuilder()
        map.add("id", .string(id))
        map.add("title", .string(title))
        map.add("created_at", .date(createdAt))
        map.add("target_rank", targetRank)
        map.add("targets", .list(targets.map(YAMLValue.string), flow: true))
        map.add("known", .list(known.map(YAMLValue.string), flow: true))
        map.add("made_by", .string(madeBy))
        map.add("body", .string(body))
        return map.build()
    }
}
