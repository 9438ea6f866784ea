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

extension WebApp {
    // MARK: Today

    func today() throws -> TodayAnswer {
        let library = try library()
        let launch = try library.launch()
        let planner = launch.planner()
        let limits = SessionPlanner.Limits.from(launch.profile)
        let now = Date()
        let plan = planner.plan(decks: [], limits: limits, now: now)
        // Each deck's counts are those of the session its button starts: that deck planned
        // alone, with today's limits all its own.
        let decks = planner.studyableDecks([]).map { name in
            let alone = planner.plan(decks: [name], limits: limits, now: now)
            return TodayAnswer.Deck(
                name: name, title: library.decks[name]?.title ?? name, kind: library.decks[name]?.kind.rawValue ?? "",
                due: alone.due.count, new: alone.new.count)
        }
        return TodayAnswer(
            user: user, due: plan.due.count, new: plan.new.count, dueDeferred: plan.dueDeferred,
            dueLaterToday: plan.dueLaterToday, dueToday: plan.dueToday, reviewedToday: plan.reviewedToday, decks: decks,
            dailyGoal: StudyStats.dailyGoal(of: library.profile),
            sessionOpen: lock.withLock { session.map { !$0.isFinished } ?? false })
    }

    // MARK: Study

    func currentScreen() throws -> SessionScreen {
        guard let session = lock.withLock({ session }) else {
            throw WebError(.notFound, "no_session", "no study session; start one with POST /api/session")
        }
        return session.current
    }

    func startSession(_ request: StartRequest) throws -> SessionScreen {
        if let open = lock.withLock({ session }), !open.isFinished { return open.current }
        let library = try library()
        let start = try library.startStudy(
            decks: request.decks ?? [], limits: StudyLimits(new: request.new, reviewsPerDay: request.reviews),
            custom: try request.customStudy())
        guard !start.plan.isEmpty || start.resumesInterruptedSession else {
            start.close()
            return SessionScreen(
                version: 0,
                screen: StudyScreen(answered: 0, planned: 0, number: 0, notices: [], content: .summary(.empty)),
                nothingToStudy: true, reviewedToday: start.plan.reviewedToday)
        }
        let opened: WebStudySession
        do {
            opened = try WebStudySession(start: start, typed: request.typed)
        } catch {
            start.close()
            throw error
        }
        lock.withLock { session = opened }
        return opened.current
    }

    func reply(_ request: ReplyRequest) throws -> SessionScreen {
        guard let session = lock.withLock({ session }) else {
            throw WebError(.notFound, "no_session", "no study session; start one with POST /api/session")
        }
        switch try session.apply(request.action, version: request.version) {
        case let .applied(screen): return screen
        case .stale: throw WebError(.conflict, "stale", "that screen was already answered; here is the current one")
        }
    }

    /// Typed recall so far, marked word by word against the passage on screen (`RecallComparison`).
    func recall(_ request: RecallRequest) throws -> RecallComparisonAnswer {
        guard let session = lock.withLock({ session }), let id = session.recitedEntry,
            case let .passage(passage)? = try library().launch().entry(id: id)?.content
        else { throw WebError(.conflict, "no_recall", "no passage is being recited") }
        // The words typed so far, judged as far as they reach; the word still being typed waits.
        let comparison = RecallComparison.comparePrefix(passage: passage.text, typed: request.typed)
        // Only the typed words' marks go back: the passage itself stays hidden.
        var words = comparison.words.compactMap { word in
            word.typed.map { RecallComparisonAnswer.Word(typed: $0, mark: word.mark.rawValue) }
        }
        if let pending = comparison.pending {
            words.append(.init(typed: pending, mark: comparison.pendingOnTrack ? "pending" : "wrong"))
        }
        return RecallComparisonAnswer(words: words, pendingOnTrack: comparison.pendingOnTrack)
    }

    // MARK: Reader

    /// The same reading as `rote read` (`Library.read`), token by token.
    func read(_ text: String) throws -> [ReaderToken] {
        try library().read(text).tokens.map { token in
            guard token.isWord else { return ReaderToken(text: token.text, isWord: false) }
            return ReaderToken(
                text: token.text, isWord: true, status: token.status?.readerStatus ?? "none", rank: token.rank,
                entry: token.entry)
        }
    }

    /// The summary `rote read` prints, for the same text.
    func readingSummary(_ text: String) throws -> ReadingSummary {
        let reading = try library().read(text)
        func word(_ word: Reading.Word) -> ReadingSummary.Word {
            ReadingSummary.Word(
                entry: word.entry, word: word.word, rank: word.rank, status: word.status?.readerStatus,
                count: word.count)
        }
        return ReadingSummary(
            runningWords: reading.runningWords, knownWords: reading.knownWords, ignoredWords: reading.ignoredWords,
            coverage: (reading.coverage * 10_000).rounded() / 10_000, unknown: reading.unknown.map(word),
            notInDeck: reading.notInDeck.map(word))
    }

    func lookup(_ word: String) throws -> [WordAnswer] {
        let launch = try library().launch()
        return launch.index.lemmas(of: word).compactMap { number in
            guard let entry = launch.entry(number), case let .vocabulary(lemma) = entry.content else { return nil }
            return WordAnswer(
                entry: entry.id, lemma: lemma.word, pos: lemma.pos, translation: lemma.translation,
                meaning: lemma.definition.first { $0.0 == "en" }?.1,
                rank: lemma.rank, cefr: lemma.cefr, forms: lemma.forms.map { [$0.0, $0.1] },
                examples: lemma.examples.map { .init(en: $0.en, translated: $0.translated) },
                status: launch.index.status(ofEntry: number).readerStatus)
        }
    }

    /// The summary screen's "Undo this session": how many reviews it took back and how many
    /// entries are as they were before it.
    func undoSession(_ request: UndoSessionRequest) throws -> [String: Int] {
        let undo = try library().undo(session: request.session)
        return ["reviews": undo.reviewsUndone, "entries": undo.entries.count]
    }

    func changeStatus(_ request: StatusRequest) throws -> [String: String] {
        guard let status = ProgressFile.Status(rawValue: request.status) else {
            throw WebError(.badRequest, "bad_status", "status is ignored, suspended or active")
        }
        let library = try library()
        let entry = try library.entry(named: request.entry)
        let verb = ["ignored": "ignore", "suspended": "suspend", "active": "activate"][request.status]!
        let changed = try library.change(.status(status), of: [entry], verb: verb)
        return ["entry": entry.id, "status": changed.first?.file.status.rawValue ?? request.status]
    }

    func triage(_ request: TriageRequest) throws -> [String: String] {
        let library = try library()
        let entry = try library.entry(named: request.entry)
        switch request.action {
        case "add": _ = try library.add([entry])
        case "known": _ = try library.markKnown([entry])
        default: throw WebError(.badRequest, "bad_action", "action is add or known")
        }
        return ["entry": entry.id, "action": request.action]
    }

    func ignoreWord(_ request: IgnoreWordRequest) throws -> [String: [String]] {
        let word = request.word.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !word.isEmpty, word.count <= 100, !word.contains(where: \.isNewline) else {
            throw WebError(.badRequest, "bad_word", "give one word of at most 100 characters")
        }
        return ["ignored": try library().ignoreWords([word])]
    }

    // MARK: Library

    func decks() throws -> [[String: String]] {
        let library = try library()
        return library.deckOrder.compactMap { name in
            guard let deck = library.decks[name] else { return nil }
            return [
                "name": name, "title": deck.title, "kind": deck.kind.rawValue, "description": deck.description ?? "",
            ]
        }
    }

    func entries(deck: String?, search: String?, offset: Int, limit: Int) throws -> [String: AnyEncodable] {
        let found = try library().search(
            deck: deck?.isEmpty == true ? nil : deck, query: search ?? "", offset: max(0, offset), limit: max(0, limit))
        let page = found.page.map { ["id": $0.id, "gloss": $0.gloss, "status": $0.status.readerStatus] }
        return ["total": AnyEncodable(found.total), "entries": AnyEncodable(page)]
    }

    func entry(_ id: String) throws -> EntryAnswer {
        let library = try library()
        let entry = try library.entry(named: id)
        let progress = library.progress(of: entry.id)
        let kind =
            switch entry.content {
            case .vocabulary: "vocabulary"
            case .passage: "passage"
            case .letter: "letter"
            case .question: "question"
            }
        // Confidence and mastery as `rote show` works them out: the reviews replayed by the
        // deck's scheduler, at this moment.
        let scheduler = Scheduler(
            settings: .forDeck(library.decks[entry.deck], profile: library.profile, deckName: entry.deck))
        let mastery = progress.flatMap { file in
            file.reviews.isEmpty
                ? nil : Mastery(events: file.scheduledReviews, entryID: entry.id, at: Date(), scheduler: scheduler)
        }
        return EntryAnswer(
            id: entry.id, deck: entry.deck, deckTitle: library.decks[entry.deck]?.title ?? entry.deck, kind: kind,
            gloss: entry.gloss,
            status: library.status(of: entry).readerStatus,
            file: (try? String(contentsOf: root.appending(path: entry.path), encoding: .utf8)) ?? "",
            due: progress?.state?.due, stability: progress?.state?.stability, difficulty: progress?.state?.difficulty,
            confidence: mastery?.confidence, mastery: mastery?.level.rawValue, lapses: progress?.state?.lapses,
            ladder: progress?.ladder?.level, audio: entry.media.audio, image: entry.media.image,
            reviews: (progress?.reviews ?? []).map {
                .init(at: $0.at, grade: $0.grade.name, ms: $0.ms, device: $0.device)
            },
            commits: try library.commits(touching: entry, limit: 2000).map {
                .init(id: $0.id, date: $0.date, summary: $0.summary, touched: $0.touched)
            })
    }

    // MARK: Stats

    func stats() throws -> StatsAnswer {
        let library = try library()
        let stats = try cachedStats()
        let maximum = stats.reviewsPerDay.max() ?? 0
        return StatsAnswer(
            dueToday: stats.dueToday, forecast: Array(stats.due.prefix(StudyStats.upcomingDays + 1)),
            reviewsPerDay: stats.reviewsPerDay,
            heatLevels: stats.reviewsPerDay.map { StudyHeatmap.level($0, maximum: maximum) },
            currentStreak: stats.currentStreak, longestStreak: stats.longestStreak,
            dailyGoal: stats.dailyGoal, reviewsToday: stats.reviewsToday, practiceToday: stats.practiceToday,
            practiceReviews: stats.practiceReviews, retentionReviews: stats.retention.reviews,
            retentionAchieved: stats.retention.achieved,
            retentionDesired: stats.retention.desired,
            mastery: library.deckOrder.compactMap { deck in
                stats.mastery[deck].map { levels in
                    .init(
                        deck: deck, title: library.decks[deck]?.title ?? deck,
                        levels: MasteryLevel.allCases.map { .init(level: $0.rawValue, count: levels[$0] ?? 0) })
                }
            },
            skills: stats.skills.sorted { $0.key < $1.key }.map { path, practice in
                .init(
                    skill: path, title: skillTitle(path) ?? path, deck: String(path.split(separator: "/")[0]),
                    attempts: practice.attempts, correct: practice.correct, accuracy: practice.accuracy,
                    lastPractised: practice.lastPractised, confidence: practice.confidence,
                    mastery: practice.mastery.rawValue, questions: practice.questions)
            },
            leeches: stats.leeches.map { id in
                .init(
                    id: id, gloss: (try? library.entry(named: id).gloss) ?? id,
                    lapses: library.progress(of: id)?.state?.lapses ?? 0)
            },
            schedules: library.deckOrder.map { deck in
                StatsAnswer.Schedule(
                    deck: deck, title: library.decks[deck]?.title ?? deck,
                    DeckSchedule(library.decks[deck], profile: library.profile, deckName: deck))
            })
    }

    /// A skill's title from its `skill.yaml`, as `rote show` reads it; nil when unreadable.
    func skillTitle(_ path: String) -> String? {
        let relative = LibraryPaths.skill(path)
        guard let data = FileManager.default.contents(atPath: root.appending(path: relative).path) else { return nil }
        return Skill.decode(data, path: relative).0?.title
    }

    // MARK: Letters

    /// The tracing page's switches, kept in the profile as `rote letters settings` keeps them.
    func changeLetterSettings(_ request: LetterSettingsRequest) throws -> [String: Bool] {
        guard request.leftHanded != nil || request.haptics != nil else {
            throw WebError(.badRequest, "bad_settings", "give left_handed or haptics (true or false)")
        }
        let library = try library()
        let changed = [
            request.leftHanded.map { $0 ? "left-handed" : "right-handed" },
            request.haptics.map { "haptics \($0 ? "on" : "off")" },
        ]
        .compactMap { $0 }.joined(separator: ", ")
        let profile = try library.updateProfile(subject: "Settings: \(changed) for \(library.user)") { profile in
            if let hand = request.leftHanded { profile.settings.leftHanded = hand }
            if let haptics = request.haptics { profile.settings.haptics = haptics }
        }
        return ["left_handed": profile.settings.leftHanded ?? false, "haptics": profile.settings.haptics ?? false]
    }

    func letters(deck name: String?) throws -> LettersAnswer {
        let library = try library()
        let deck = try library.lettersDeck(name)
        let rule = library.decks[deck]?.unlock ?? .init()
        let attempts = library.letterAttempts().mapValues(\.attempts)
        let unlocked = library.unlockedLetters(inDeck: deck)
        return LettersAnswer(
            deck: deck, passScore: rule.minScore, passes: rule.passes, passMode: rule.mode,
            leftHanded: library.profile?.settings.leftHanded, haptics: library.profile?.settings.haptics,
            letters: library.entries(inDeck: deck).compactMap { entry in
                guard case let .letter(letter) = entry.content else { return nil }
                let mastery = LetterMastery(attempts: attempts[entry.id] ?? [], rule: rule)
                return .init(
                    id: entry.id, character: letter.character ?? letter.glyph, name: letter.name ?? "",
                    glyph: letter.glyph,
                    strokes: letter.strokes.map { $0.map { [$0.x, $0.y] } }, tips: letter.tips,
                    unlocked: unlocked.contains(entry.id),
                    best: mastery.bestScore, attempts: mastery.attemptCount,
                    passesDone: min(mastery.passes, rule.passes))
            })
    }

    /// Scores a drawing against its letter's template (`TraceScoring`) and records it exactly
    /// as `rote letters record` would record the same JSON.
    func recordTrace(_ request: TraceRequest) throws -> TraceAnswer {
        let library = try library()
        let deck = try library.lettersDeck(request.deck)
        let entry = try library.letterEntry(request.letter, inDeck: deck)
        guard case let .letter(letter) = entry.content else {
            throw WebError(.notFound, "not_found", "\(entry.id) is not a letter")
        }
        let score = TraceScoring.score(
            drawing: try request.points(), template: letter.strokes.map { $0.map { TracePoint(x: $0.x, y: $0.y) } })
        // The attempt as the JSON `rote letters record` reads, through the same parser.
        var json: [String: Any] = [
            "mode": request.mode, "score": score.score, "stroke_order": score.strokeOrder, "direction": score.direction,
            "shape": score.shape,
            "start": score.start, "tips": score.tips, "hint_used": request.hintUsed ?? false,
            "started_at": request.startedAt,
            "completed_at": request.completedAt,
            "drawing": request.drawing.map { $0.map { $0.map { ($0 * 10).rounded() / 10 } } },
        ]
        json["letter"] = entry.id
        let attempt = try LetterAttempt.parse(json: try JSONSerialization.data(withJSONObject: json))
        let recorded = try library.recordLetterAttempt(attempt, of: entry, inDeck: deck, source: "the attempt")
        return TraceAnswer(
            letter: entry.id, score: score.score, start: score.start, direction: score.direction,
            strokeOrder: score.strokeOrder, shape: score.shape,
            tips: score.tips, file: library.paths.letterAttempts(entry.id), best: recorded.mastery.bestScore,
            attempts: recorded.mastery.attemptCount,
            passesDone: min(recorded.mastery.passes, recorded.rule.passes), unlocked: recorded.newlyUnlocked,
            review: recorded.review?.grade.name)
    }
}

struct RecallComparisonAnswer: Encodable {
    struct Word: Encodable { var typed: String, mark: String }
    var words: [Word]
    var pendingOnTrack: Bool
}

struct StatsAnswer: Encodable {
    struct DeckMastery: Encodable {
        struct Level: Encodable { var level: String, count: Int }
        var deck: String
        var title: String
        var levels: [Level]
    }
    /// A skill of a skills deck with the learner's practice of it (`SkillPractice`), as
    /// `rote stats` lists it.
    struct SkillRow: Encodable {
        var skill, title, deck: String
        var attempts, correct: Int
        var accuracy: Double?
        var lastPractised: Date?
        var confidence: Int
        var mastery: String
        var questions: Int
    }
    /// An entry forgotten as often as its deck's leech threshold.
    struct Leech: Encodable {
        var id, gloss: String
        var lapses: Int
    }
    /// The settings a deck schedules with and where each came from (`DeckSchedule`), as
    /// `rote stats` lists them: sources are `learner_for_deck`, `learner`, `deck`, `default`;
    /// parameters `deck`, `learner` or `default`.
    struct Schedule: Encodable {
        var deck, title: String
        var fsrs: Bool
        var desiredRetention: Double
        var retentionSource: String
        var maximumInterval: Int
        var leechThreshold: Int
        var leechAction: String
        var leechSource: String
        var parameters: String

        init(deck: String, title: String, _ schedule: DeckSchedule) {
            func name(_ source: DeckSchedule.Source) -> String {
                switch source {
                case .learnerForDeck: "learner_for_deck"
                case .learner: "learner"
                case .deck: "deck"
                case .standard: "default"
                }
            }
            self.deck = deck
            self.title = title
            fsrs = schedule.settings.scheduler == .fsrs
            desiredRetention = schedule.settings.desiredRetention
            retentionSource = name(schedule.retention)
            maximumInterval = schedule.settings.maximumInterval
            leechThreshold = schedule.settings.leechThreshold
            leechAction = schedule.settings.leechAction.rawValue
            leechSource = name(schedule.leech)
            switch schedule.parameters {
            case .fittedToDeck: parameters = "deck"
            case .fittedToLearner: parameters = "learner"
            case .standard: parameters = "default"
            }
        }
    }
    var dueToday: Int
    /// Due reviews per day, today first, for the next 30 days.
    var forecast: [Int]
    /// Reviews per day over the last 90 days, today last.
    var reviewsPerDay: [Int]
    /// Each day's heatmap shade, 0–4, as `rote stats` shades it.
    var heatLevels: [Int]
    /// Practice answers (which do not reschedule) today and over the last 90 days; not in
    /// `reviewsToday` nor `reviewsPerDay`.
    var currentStreak, longestStreak, dailyGoal, reviewsToday, practiceToday, practiceReviews, retentionReviews: Int
    var retentionAchieved: Double?
    var retentionDesired: Double
    var mastery: [DeckMastery]
    var skills: [SkillRow]
    var leeches: [Leech]
    var schedules: [Schedule]
}

struct LettersAnswer: Encodable {
    struct Letter: Encodable {
        var id, character, name, glyph: String
        var strokes: [[[Double]]]
        var tips: [String]
        var unlocked: Bool
        var best: Int?
        var attempts: Int
        var passesDone: Int
    }
    var deck: String
    var passScore, passes: Int
    var passMode: String
    /// The profile's `left_handed` and `haptics` (`rote letters settings`); nil when unset.
    var leftHanded: Bool?
    var haptics: Bool?
    var letters: [Letter]
}

struct TraceAnswer: Encodable {
    var letter: String
    var score, start, direction, strokeOrder, shape: Int
    var tips: [String]
    /// The attempts file the attempt went into.
    var file: String
    var best: Int?
    var attempts, passesDone: Int
    var unlocked: [String]
    /// The review a memory-mode attempt counted as.
    var review: String?
}

/// Any encodable value, for answers shaped by a dictionary.
struct AnyEncodable: Encodable {
    let value: any Encodable
    init(_ value: any Encodable) { self.value = value }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
