import Foundation
import Git
import Parallelism
import RoteModel
import RoteStore
import Scheduling

/// Generates a realistic library for the git benchmarks, deterministically from a seed:
///
///     rote-bench generate --out DIR [--entries 100000] [--progress 50000] [--reviews 2000000]
///                         [--sessions 5000] [--seed 20261121] [--batch 20000]
///
/// - `rote.yaml`, `.gitattributes` (the merge drivers, as `rote init` writes them), one
///   vocabulary deck `corpus/bench-words/` of `--entries` synthetic but well-formed words
///   (pronounceable syllable strings such as `brailomus`, with a transliterated "Arabic"
///   translation, forms for their part of speech, two examples and three questions each);
/// - a learner `bench` with a profile, `--progress` progress files (the most frequent words)
///   holding `--reviews` review events in all, spread over the ten years before
///   2026-11-21 by a simulated learner who answers around the due dates (FSRS-6) and
///   crams when a history would outrun the decade; every `state` is `Scheduler.replay` of
///   the file's reviews with the deck's and profile's settings, as `rote check` expects;
/// - `--sessions` session files with 10–50 attempts each.
///
/// Everything is committed as one commit on `main`, with trees built in memory by LibGit's
/// `buildTree` in batches of `--batch` files (never `git add` of the work tree), then checked
/// out so the work tree and git's index match HEAD. When the system git is present the
/// objects are packed (`git repack -a -d`), as a library that has lived for years would be.
/// Each entry, progress file and session draws from its own seeded stream, so a smaller
/// library is the first part of a bigger one with the same seed. The library is built in
/// `DIR.partial` and renamed to `DIR` when complete.
enum LibraryGenerator {
    struct Spec: Sendable {
        var entries = 100_000
        var progress = 50_000
        var reviews = 2_000_000
        var sessions = 5_000
        var seed: UInt64 = 20_261_121
        var user = "bench"
        var deck = "bench-words"

        /// A folder name that says what the library holds, for reuse by `bench.sh`.
        var folderName: String { "lib-e\(entries)-p\(progress)-r\(reviews)-s\(sessions)-seed\(seed)" }
    }

    /// The end of the simulated decade (the library's "now") and its start.
    static let end = Timestamp.parse("2026-11-21T00:00:00Z")!.timeIntervalSince1970
    static let start = Timestamp.parse("2016-11-21T00:00:00Z")!.timeIntervalSince1970

    static func run(_ arguments: [String]) throws {
        let options = try Options(
            arguments, allowed: ["out", "entries", "progress", "reviews", "sessions", "seed", "batch"])
        guard let out = options.string("out") else { throw OptionError(message: "generate needs --out DIR") }
        var spec = Spec()
        spec.entries = max(try options.int("entries", default: spec.entries), 1)
        spec.progress = try options.int("progress", default: spec.progress)
        spec.reviews = try options.int("reviews", default: spec.reviews)
        spec.sessions = try options.int("sessions", default: spec.sessions)
        spec.seed = UInt64(try options.int("seed", default: Int(spec.seed)))
        let batch = max(try options.int("batch", default: 20_000), 1)
        let summary = try generate(spec, at: URL(fileURLWithPath: out), batchSize: batch)
        print(summary)
    }

    // MARK: - The library

    /// Writes the library at `root` (which must not exist) and returns a one-line summary.
    static func generate(_ requested: Spec, at root: URL, batchSize: Int = 20_000) throws -> String {
        var spec = requested
        spec.progress = min(spec.progress, spec.entries, spec.reviews)
        if spec.progress != requested.progress {
            Bench.log(
                "generate: \(spec.progress) progress files (at most one per entry, and every progress file holds a review)"
            )
        }
        if spec.progress == 0 { spec.reviews = 0 }
        let manager = FileManager.default
        guard !manager.fileExists(atPath: root.path) else {
            throw OptionError(message: "\(root.path) exists; remove it or choose another --out")
        }
        let partial = URL(fileURLWithPath: root.path + ".partial")
        try? manager.removeItem(at: partial)
        let clock = ContinuousClock()
        let began = clock.now
        func elapsed() -> String { Bench.duration(seconds(clock.now - began)) }

        let repository = try Repository.create(at: partial)
        var tree: Tree?
        var pending: [String: Data?] = [:]
        var written = 0
        var bytes = 0
        func add(_ path: String, _ text: String) throws {
            let data = Data(text.utf8)
            pending[path] = data
            written += 1
            bytes += data.count
            if pending.count >= batchSize { try flush() }
        }
        func flush() throws {
            guard !pending.isEmpty else { return }
            tree = try repository.buildTree(from: tree, changes: pending)
            pending = [:]
        }
        func report(_ what: String, _ done: Int, _ total: Int) {
            Bench.log("generate: \(what) \(done)/\(total) (\(elapsed()))")
        }

        let deck = DeckManifest(
            kind: .vocabulary, title: "Benchmark words",
            description: "\(spec.entries) synthetic words for Rote's benchmarks (seed \(spec.seed)).",
            sourceLanguage: "en", targetLanguage: "ar", version: "1.0.0", license: "CC0-1.0",
            source: "Generated by rote-bench generate.", scheduler: .fsrs, order: .rank)
        var profile = Profile(
            user: spec.user, name: "Benchmark Learner", createdAt: Date(timeIntervalSince1970: start),
            updatedAt: Date(timeIntervalSince1970: end - 86_400))
        profile.settings.dailyGoal = 40
        profile.settings.newPerDay = 15
        profile.settings.reviewsPerDay = 400
        profile.settings.desiredRetention = 0.9
        profile.settings.nativeLanguage = "ar"
        profile.settings.targetLanguage = "en"
        profile.lexicalRank = spec.progress
        try add(
            LibraryLocation.manifestName,
            LibraryManifest(title: "Benchmark library", defaultUser: spec.user, decks: [spec.deck]).render())
        try add(".gitattributes", MergeRules.gitAttributes)
        try add(LibraryPaths.deckManifest(spec.deck), deck.render())
        try add(LibraryPaths(user: spec.user).profile, profile.render())

        // Each item is made from its own seeded stream, so a batch is made on every core and
        // then added in order.
        let every = max(batchSize, 1)
        func batches(_ total: Int, _ what: String, _ make: @escaping @Sendable (Int) -> (path: String, text: String))
            throws
        {
            var done = 0
            while done < total {
                let first = done
                let count = min(every, total - done)
                for item in Array(first..<first + count).concurrentMap(make) { try add(item.path, item.text) }
                done += count
                report(what, done, total)
            }
        }
        let fixed = spec
        try batches(spec.entries, "entries") { index in
            (
                LibraryPaths.entry("\(fixed.deck)/\(Words.word(index, seed: fixed.seed))"),
                entry(index, spec: fixed).render()
            )
        }

        let settings = SchedulerSettings.forDeck(deck, profile: profile)
        let scheduler = Scheduler(settings: settings)
        let fsrs = FSRS(settings: settings)
        let counts = reviewCounts(spec)
        let reviewsWritten = counts.reduce(0, +)
        try batches(spec.progress, "progress files") { index in
            let file = progressFile(index, reviews: counts[index], spec: fixed, fsrs: fsrs, scheduler: scheduler)
            return (LibraryPaths(user: fixed.user).progress(file.entry), file.render())
        }
        try batches(spec.sessions, "sessions") { index in
            let session = sessionFile(index, spec: fixed)
            return (SessionFile.path(for: session), session.render())
        }
        try flush()
        guard let tree else { throw OptionError(message: "nothing to commit") }

        let signature = try Signature(
            name: "Benchmark Learner", email: "\(spec.user)@rote.invalid", date: Date(timeIntervalSince1970: end))
        let message = """
            Generate a benchmark library: \(spec.entries) entries, \(spec.progress) progress files, \(reviewsWritten) reviews, \(spec.sessions) sessions

            Made by rote-bench generate with seed \(spec.seed).
            Rote-User: \(spec.user)

            """
        try repository.createCommit(tree: tree, parents: [], message: message, author: signature, committer: signature)
        Bench.log(
            "generate: committed \(written) files (\(bytes / 1_048_576) MiB); checking out the work tree (\(elapsed()))"
        )
        try repository.checkoutHead(force: true)
        if (try? Bench.which("git")) != nil {
            Bench.log("generate: packing objects with git repack -a -d (\(elapsed()))")
            try Bench.git(["repack", "-a", "-d", "-q"], in: partial)
        }
        try manager.moveItem(at: partial, to: root)
        return
            "generated \(root.path): \(spec.entries) entries, \(spec.progress) progress files with \(reviewsWritten) reviews, "
            + "\(spec.sessions) sessions; \(written) files, \(bytes / 1_048_576) MiB, in \(elapsed())"
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// A generator for one item of one part of the library, independent of every other item.
    static func stream(_ seed: UInt64, _ part: UInt64, _ index: Int) -> SeededGenerator {
        var mixer = SeededGenerator(seed: seed ^ (part &* 0x9e37_79b9_7f4a_7c15))
        var random = SeededGenerator(seed: mixer.next() &+ UInt64(index) &* 0xd1b5_4a32_d192_ed03)
        _ = random.next()
        return random
    }

    // MARK: - Entries

    static let templates: [String: [(en: String, ar: String, form: String, context: String)]] = [
        "verb": [
            ("I {%} every morning.", "أنا {%} كل صباح.", "base", "daily_routine"),
            ("She {%} it every day.", "هي {%} ذلك كل يوم.", "third_person", "daily_routine"),
            ("They {%} it last year.", "هم {%} ذلك في العام الماضي.", "past", "past_events"),
            ("We are {%} right now.", "نحن {%} الآن.", "present_participle", "present"),
        ],
        "noun": [
            ("This is my {%}.", "هذا {%} لي.", "singular", "possessions"),
            ("There are many {%} here.", "هناك الكثير من {%} هنا.", "plural", "places"),
            ("Where is the {%}?", "أين {%}؟", "singular", "questions"),
        ],
        "adjective": [
            ("It is very {%}.", "إنه {%} جدا.", "base", "description"),
            ("Hers is {%} than mine.", "ما لها {%} مما لي.", "comparative", "comparison"),
            ("This is the {%} one.", "هذا هو {%}.", "superlative", "comparison"),
        ],
    ]

    static func forms(of word: String, pos: String) -> [(String, String)] {
        let endsInE = word.hasSuffix("e")
        let endsInS = word.hasSuffix("s")
        switch pos {
        case "verb":
            let past = endsInE ? word + "d" : word + "ed"
            return [
                ("base", word), ("third_person", endsInS ? word + "es" : word + "s"), ("past", past),
                ("past_participle", past),
                ("present_participle", (endsInE ? String(word.dropLast()) : word) + "ing"),
            ]
        case "noun":
            return [("singular", word), ("plural", endsInS ? word + "es" : word + "s")]
        default:
            return [
                ("base", word), ("comparative", endsInE ? word + "r" : word + "er"),
                ("superlative", endsInE ? word + "st" : word + "est"),
            ]
        }
    }

    static func pos(_ index: Int, seed: UInt64) -> String {
        var random = stream(seed, 1, index)
        let roll = random.next(upperBound: UInt64(100))
        return roll < 35 ? "verb" : roll < 80 ? "noun" : "adjective"
    }

    static func cefr(rank: Int) -> String {
        rank <= 1_000
            ? "A1" : rank <= 2_500 ? "A2" : rank <= 5_000 ? "B1" : rank <= 10_000 ? "B2" : rank <= 20_000 ? "C1" : "C2"
    }

    /// Entry `index` (rank `index + 1`): forms, two examples, three questions.
    static func entry(_ index: Int, spec: Spec) -> VocabularyEntry {
        var random = stream(spec.seed, 1, index)
        _ = random.next()  // the part of speech's draw (see `pos`)
        let word = Words.word(index, seed: spec.seed)
        let pos = pos(index, seed: spec.seed)
        let translation = Words.arabic(word)
        let wordForms = forms(of: word, pos: pos)
        func other(_ offset: Int) -> Int { (index + offset) % max(spec.entries, 1) }
        let choices = templates[pos]!
        let second = 1 + Int(random.next(upperBound: UInt64(choices.count - 1)))
        let examples = [choices[0], choices[second]].enumerated().map { number, template in
            let marked = wordForms.first { $0.0 == template.form }!.1
            return VocabularyEntry.Example(
                en: template.en.replacingOccurrences(of: "%", with: marked),
                translated: template.ar.replacingOccurrences(of: "%", with: translation),
                form: template.form, context: template.context, difficulty: number == 0 ? "basic" : "intermediate",
                primary: number == 0)
        }
        let first = examples[0]
        let answer = VocabularyEntry.Example.marked(in: first.en)!
        let sentence = first.en.replacingOccurrences(of: "{\(answer)}", with: "___")
        let blank = sentence.split(whereSeparator: \.isWhitespace).firstIndex { $0.contains("___") }
        let others = (1...6).map(other).filter { $0 != index }
        let formDistractors = (wordForms.map(\.1) + others.map { Words.word($0, seed: spec.seed) })
            .reduce(into: [String]()) { if $1 != answer, !$0.contains($1) { $0.append($1) } }
        let questions = [
            VocabularyQuestion(
                id: "translation", kind: .translationMatch, prompt: word, answer: translation,
                explanation: "'\(word)' means \(translation).",
                distractors: others.prefix(3).map {
                    .init(text: Words.arabic(Words.word($0, seed: spec.seed)), note: Words.word($0, seed: spec.seed))
                }),
            VocabularyQuestion(
                id: "reverse", kind: .reverseTranslation, prompt: translation, answer: word, form: wordForms[0].0,
                distractors: others.prefix(3).map { .init(text: Words.word($0, seed: spec.seed)) }),
            VocabularyQuestion(
                id: "sentence-1", kind: .sentenceCompletion, answer: answer, form: first.form, example: 1,
                sentence: sentence,
                blank: blank, difficulty: "medium", distractors: formDistractors.prefix(3).map { .init(text: $0) }),
        ]
        var entry = VocabularyEntry(
            word: word, pos: pos, translation: translation, forms: wordForms, examples: examples, questions: questions)
        let rank = index + 1
        entry.alternatives = [translation + "ة"]
        entry.definition = [
            ("en", "a \(pos) made up for benchmarks, word number \(rank)"), ("ar", "كلمة مصطنعة رقم \(rank)"),
        ]
        entry.ipa = "/\(word)/"
        entry.rank = rank
        entry.cefr = cefr(rank: rank)
        entry.batch = index / 500 + 1
        entry.difficulty = rank <= 2_500 ? "basic" : rank <= 10_000 ? "intermediate" : "advanced"
        entry.root = word
        if let synonym = others.first { entry.related = [("synonyms", [Words.word(synonym, seed: spec.seed)])] }
        return entry
    }

    // MARK: - Progress

    /// Reviews per progress file: at least one each, the rest spread unevenly (some words are
    /// much harder than others), summing exactly to `spec.reviews`.
    static func reviewCounts(_ spec: Spec) -> [Int] {
        guard spec.progress > 0 else { return [] }
        var random = stream(spec.seed, 3, 0)
        let weights = (0..<spec.progress).map { _ in
            0.25 - log(Double(random.next(upperBound: UInt64(1) << 52) + 1) / Double(UInt64(1) << 52))
        }
        let total = weights.reduce(0, +)
        let extra = spec.reviews - spec.progress
        var counts = weights.map { 1 + Int(Double(extra) * $0 / total) }
        var missing = spec.reviews - counts.reduce(0, +)
        var index = 0
        while missing > 0 {
            counts[index % counts.count] += 1
            missing -= 1
            index += 7_919
        }
        return counts
    }

    static let devices = ["laptop", "desktop", "phone"]

    /// Progress file `index` (for the entry of rank `index + 1`) with `count` reviews.
    static func progressFile(_ index: Int, reviews count: Int, spec: Spec, fsrs: FSRS, scheduler: Scheduler)
        -> ProgressFile
    {
        var random = stream(spec.seed, 2, index)
        let entryID = "\(spec.deck)/\(Words.word(index, seed: spec.seed))"
        let window = end - start
        var time = (start + Double(random.next(upperBound: UInt64(window * 0.9)))).rounded(.down)
        var state: MemoryState?
        var events: [ReviewEvent] = []
        events.reserveCapacity(count)
        let home = devices[Int(random.next(upperBound: UInt64(devices.count)))]
        for number in 0..<count {
            let roll = random.next(upperBound: UInt64(100))
            let grade: Grade = roll < 10 ? .again : roll < 25 ? .hard : roll < 85 ? .good : .easy
            let device =
                random.next(upperBound: UInt64(4)) == 0
                ? devices[Int(random.next(upperBound: UInt64(devices.count)))] : home
            let event = ReviewEvent(
                id: Bench.uuid(&random), at: Date(timeIntervalSince1970: time), grade: grade,
                ms: 1_500 + Int(random.next(upperBound: UInt64(9_000))) + (grade == .again ? 4_000 : 0), device: device)
            events.append(event)
            let remaining = count - number - 1
            guard remaining > 0 else { break }
            let next = fsrs.next(after: state, grade: grade, at: event.at)
            state = next
            let due = next.due.timeIntervalSince1970
            var upcoming =
                next.phase == .review
                ? ReplayBenchmark.reviewTime(due: due, wait: due - time, &random)
                : due + ReplayBenchmark.draw(1_800, &random)
            // Cram when the history would outrun the decade: never use more than twice this
            // review's share of the time left.
            upcoming = min(upcoming, time + 2 * (end - time) / Double(remaining + 1))
            time = min(max(upcoming.rounded(.down), time + 60), end)
        }
        let status: ProgressFile.Status
        let roll = random.next(upperBound: UInt64(100))
        status = roll < 2 ? .suspended : roll < 3 ? .ignored : .active
        let statusAt = status == .active ? nil : events.last.map { $0.at.addingTimeInterval(30) }
        return ProgressFile(
            entry: entryID, status: status, statusAt: statusAt, state: scheduler.replay(events, entryID: entryID),
            reviews: events)
    }

    // MARK: - Sessions

    static func sessionFile(_ index: Int, spec: Spec) -> SessionFile {
        var random = stream(spec.seed, 4, index)
        let id = Bench.uuid(&random)
        var time = (start + Double(random.next(upperBound: UInt64(end - start - 7_200)))).rounded(.down)
        let startedAt = Date(timeIntervalSince1970: time)
        let count = 10 + Int(random.next(upperBound: UInt64(41)))
        var attempts: [SessionFile.Attempt] = []
        var grades = [Grade: Int]()
        let pool = max(spec.progress, 1)
        for _ in 0..<count {
            let target = Int(random.next(upperBound: UInt64(pool))) % max(spec.entries, 1)
            let word = Words.word(target, seed: spec.seed)
            let question = ["translation", "reverse", "sentence-1"][Int(random.next(upperBound: UInt64(3)))]
            let correct = random.next(upperBound: UInt64(100)) < 85
            let wrong = Words.word((target + 1) % max(spec.entries, 1), seed: spec.seed)
            let answer: String
            switch question {
            case "translation": answer = Words.arabic(correct ? word : wrong)
            case "reverse": answer = correct ? word : wrong
            default: answer = correct ? word : wrong + "s"
            }
            let ms = 1_500 + Int(random.next(upperBound: UInt64(9_000)))
            time += Double(ms / 1_000 + 2)
            attempts.append(
                .init(
                    entry: "\(spec.deck)/\(word)", question: question, answer: answer, correct: correct,
                    at: Date(timeIntervalSince1970: time), ms: ms))
            let grade: Grade = !correct ? .again : ms < 3_000 ? .easy : ms < 8_000 ? .good : .hard
            grades[grade, default: 0] += 1
        }
        return SessionFile(
            id: id, user: spec.user, device: devices[Int(random.next(upperBound: UInt64(devices.count)))],
            kind: random.next(upperBound: UInt64(3)) == 0 ? .review : .mixed, startedAt: startedAt,
            endedAt: Date(timeIntervalSince1970: time + 5), decks: [spec.deck],
            again: grades[.again] ?? 0, hard: grades[.hard] ?? 0, good: grades[.good] ?? 0, easy: grades[.easy] ?? 0,
            new: Int(random.next(upperBound: UInt64(6))), attempts: attempts)
    }
}

/// Synthetic words: three syllables (onset, vowel, optional coda) picked by a bijection of the
/// index, so every index gives a different word that is also a valid slug, and a
/// letter-by-letter "Arabic" transliteration that is just as unique.
enum Words {
    static let onsets = ["b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "tr", "sh", "kl"]
    static let vowels = ["a", "e", "i", "o", "u", "ai", "ou"]
    static let codas = ["", "n", "r", "s", "l"]
    static let syllables: [String] = onsets.flatMap { onset in
        vowels.flatMap { vowel in codas.map { onset + vowel + $0 } }
    }
    /// 630³ words; the multiplier is a prime that shares no factor with it, so `index ↦
    /// (index × multiplier + offset) mod space` is a bijection.
    static let space = UInt64(syllables.count * syllables.count * syllables.count)
    static let multiplier: UInt64 = 1_000_003

    static func word(_ index: Int, seed: UInt64) -> String {
        var value = (UInt64(index) % space * multiplier + seed % space) % space
        var word = ""
        for _ in 0..<3 {
            word += syllables[Int(value % UInt64(syllables.count))]
            value /= UInt64(syllables.count)
        }
        return word
    }

    static let letters: [Character: Character] = [
        "a": "ا", "b": "ب", "d": "د", "e": "ي", "f": "ف", "g": "غ", "h": "ه", "i": "ئ", "k": "ك", "l": "ل",
        "m": "م", "n": "ن", "o": "و", "p": "ق", "r": "ر", "s": "س", "t": "ت", "u": "ع", "v": "ظ", "z": "ز",
    ]

    static func arabic(_ word: String) -> String { String(word.map { letters[$0] ?? $0 }) }
}
