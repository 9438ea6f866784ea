import Foundation
import Hummingbird
import Launch
import LetterTracing
import RoteLibrary
import RoteModel
import RoteStore
import Scheduling
import Study
import StudyData

/// The JSON bodies the API reads and writes (`docs/web.md`).
struct StartRequest: Decodable {
    var decks: [String]?
    var typed: Bool?
    var new: Int?
    var reviews: Int?
    /// A practice session (`rote study --practice`): what to practise.
    var practice: PracticeRequest?
    /// Review ahead (`rote study --review-ahead N`): entries due within this many days.
    var reviewAhead: Int?

    struct PracticeRequest: Decodable {
        var forgottenToday: Bool?
        var dueWithinDays: Int?
        /// A day, `YYYY-MM-DD`, in the server's time zone.
        var lapsedSince: String?
    }

    /// The custom session asked for, if any; a value out of range is refused, saying which.
    func customStudy() throws -> CustomStudy? {
        if let practice {
            guard reviewAhead == nil else {
                throw WebError(
                    .badRequest, "bad_value", "practice and review_ahead are two different sessions; send one")
            }
            if let days = practice.dueWithinDays, days < 0 {
                throw WebError(.badRequest, "bad_value", "practice.due_within_days must be 0 or more, got \(days)")
            }
            var since: Date?
            if let text = practice.lapsedSince {
                let parts = text.split(separator: "-").compactMap { Int($0) }
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = .current
                let components = DateComponents(
                    year: parts.first, month: parts.count == 3 ? parts[1] : nil, day: parts.last)
                guard parts.count == 3, components.isValidDate(in: calendar),
                    let day = calendar.date(from: components)
                else {
                    throw WebError(
                        .badRequest, "bad_value",
                        "practice.lapsed_since must be a day written YYYY-MM-DD, such as 2026-11-01; got '\(text)'")
                }
                since = day
            }
            return .practice(
                .init(
                    forgottenToday: practice.forgottenToday ?? false, dueWithinDays: practice.dueWithinDays,
                    lapsedSince: since))
        }
        guard let reviewAhead else { return nil }
        guard reviewAhead >= 1 else {
            throw WebError(
                .badRequest, "bad_value", "review_ahead must be a number of days, 1 or more; got \(reviewAhead)")
        }
        return .reviewAhead(days: reviewAhead)
    }
}

struct ReplyRequest: Decodable {
    /// What the learner did (`StudyAction`'s JSON: `{"choose": 1}`, `{"command": "undo"}`…).
    var action: StudyAction
    /// The version of the screen the action answers, so a double click cannot answer the next one.
    var version: Int?
}

struct RecallRequest: Decodable { var typed: String }
struct ReaderRequest: Decodable { var text: String }

/// `POST /api/session/undo`: takes back the session just saved (`Library.undo(session:)`).
struct UndoSessionRequest: Decodable {
    /// The summary's `session`.
    var session: String
}

struct StatusRequest: Decodable {
    var entry: String
    /// ignored, suspended or active.
    var status: String
}

/// Seed 002's triage of a word met in a text: `add` puts it into study now (`rote add`),
/// `known` marks it known (`rote known`).
struct TriageRequest: Decodable {
    var entry: String
    var action: String
}

/// A word in no deck, to ignore wherever it turns up (`rote ignore WORD`).
struct IgnoreWordRequest: Decodable {
    var word: String
}

/// `rote letters settings` from the tracing page.
struct LetterSettingsRequest: Decodable {
    /// `left_handed` in the body (keys are read from snake case).
    var leftHanded: Bool?
    var haptics: Bool?
}

struct TraceRequest: Decodable {
    var letter: String
    var deck: String?
    var mode: String
    /// Strokes of `[x, y, t]` points in the deck's 100×100 box, t in ms since the start.
    var drawing: [[[Double]]]
    var startedAt: String
    var completedAt: String
    var hintUsed: Bool?
}

extension TraceRequest {
    /// How far outside the 100×100 box a point may lie (a pointer held on past the pad's edge
    /// does go outside), and the longest time into an attempt: a day.
    static let coordinateLimit = 10_000.0
    static let timeLimit = 86_400_000.0

    /// The drawing as points; refused (400) when a point is not `[x, y]` or `[x, y, t]` of
    /// finite numbers within bounds. A finite but huge number (1e308) overflows the scoring's
    /// sums and the attempt's JSON to infinity, which is the client's mistake, not the server's.
    func points() throws -> [[TracePoint]] {
        // Before scoring, which goes through every point.
        let count = drawing.reduce(0) { $0 + $1.count }
        guard count <= LetterAttempt.maximumPoints else {
            throw WebError(.badRequest, "bad_attempt", "drawing: " + LetterAttempt.tooManyPoints(count))
        }
        for (s, stroke) in drawing.enumerated() {
            for (p, point) in stroke.enumerated() {
                guard point.count >= 2, point.count <= 3, point.allSatisfy(\.isFinite) else {
                    throw WebError(.badRequest, "bad_attempt", "drawing[\(s)][\(p)]: a point is [x, y] or [x, y, t]")
                }
                guard abs(point[0]) <= Self.coordinateLimit, abs(point[1]) <= Self.coordinateLimit,
                    point.count < 3 || (0...Self.timeLimit).contains(point[2])
                else {
                    throw WebError(
                        .badRequest, "bad_attempt",
                        "drawing[\(s)][\(p)]: x and y are within ±\(Int(Self.coordinateLimit)) (the letter's box is 0–100), t within 0…\(Int(Self.timeLimit)) ms"
                    )
                }
            }
        }
        return drawing.map { $0.map { TracePoint(x: $0[0], y: $0[1], t: $0.count > 2 ? $0[2] : nil) } }
    }
}

// MARK: Answers

struct TodayAnswer: Encodable {
    struct Deck: Encodable { var name, title, kind: String, due, new: Int }
    var user: String
    var due: Int
    var new: Int
    var dueDeferred: Int
    /// Due today but not yet now (a learning step's next minutes): `due` and these are
    /// `dueToday`, the number `GET /api/stats` and `rote stats` give.
    var dueLaterToday: Int
    var dueToday: Int
    var reviewedToday: Int
    var decks: [Deck]
    /// The streak and today's reviews toward the goal are in `GET /api/stats`, which reads
    /// every progress file; Today draws the plan first and fills them in.
    var dailyGoal: Int
    var sessionOpen: Bool
}

struct ReaderToken: Encodable {
    var text: String
    var isWord: Bool
    /// new, learning, known, suspended, ignored, or none (in no deck); words only.
    var status: String?
    var rank: Int?
    var entry: String?
}

/// What a text asks of the learner: `rote read`'s summary (`Library.read`).
struct ReadingSummary: Encodable {
    struct Word: Encodable {
        var entry: String?
        var word: String
        var rank: Int?
        var status: String?
        var count: Int
    }

    var runningWords: Int
    var knownWords: Int
    var ignoredWords: Int
    var coverage: Double
    var unknown: [Word]
    var notInDeck: [Word]
}

struct WordAnswer: Encodable {
    struct Example: Encodable { var en, translated: String }
    var entry: String
    var lemma: String
    var pos: String
    var translation: String
    var meaning: String?
    var rank: Int?
    var cefr: String?
    var forms: [[String]]
    var examples: [Example]
    var status: String
}

struct EntryAnswer: Encodable {
    struct Review: Encodable { var at: Date, grade: String, ms: Int?, device: String? }
    struct Commit: Encodable { var id: String, date: Date, summary: String, touched: [String] }
    var id, deck, deckTitle, kind, gloss, status: String
    var file: String
    var due: Date?
    var stability: Double?
    var difficulty: Double?
    /// `rote show`'s confidence (0–100) and its mastery level; nil before the first review.
    var confidence: Int?
    var mastery: String?
    var lapses: Int?
    var ladder: String?
    /// The entry's sound and picture, as `/media/<path>` serves them.
    var audio: String?
    var image: String?
    var reviews: [Review]
    var commits: [Commit]
}

extension LibraryIndex.Status {
    /// The reader's word classes: known for an entry in review.
    var readerStatus: String {
        switch self {
        case .new: "new"
        case .learning, .relearning: "learning"
        case .review: "known"
        case .suspended: "suspended"
        case .ignored: "ignored"
        }
    }
}
