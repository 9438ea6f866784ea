public import Foundation
import Launch
public import RoteModel
import RoteStore
import Scheduling
public import Study

/// What a finished calibration wrote.
public struct CalibrationOutcome: Sendable, Equatable {
    public var lexicalRank: Int
    public var standardError: Double
    public var questions: Int
    /// Words given a known state by synthetic reviews.
    public var warmStarted: Int
    /// Synthetic reviews of an earlier calibration taken out first.
    public var replaced: Int
}

/// Seed 002's warm start: after a calibration, words well below the learner's rank get a
/// known state from synthetic reviews rather than a scalar written into the state, so replay,
/// sync and merge treat them as any history (`docs/scheduling.md`, "Warm start").
public enum WarmStart {
    /// A word is warm-started when its rank is at most this share of the lexical rank: the
    /// model gives the learner at least a 94% chance of knowing it.
    public static let rankShare = 0.5

    /// The two synthetic reviews that give a never-studied word a known state: `easy` 60
    /// days before `now` and `easy` a day before, so FSRS replays them into a long interval
    /// and neither counts as studied today. Ids are derived from the calibration and entry,
    /// so a retried write gives the same file.
    /// `mark` is the reviews' `synthetic` value: `calibration`, or `known` for `rote known`.
    public static func reviews(
        entry: String, calibration: String, now: Date, device: String, mark: String = ReviewEvent.calibration
    ) -> [ReviewEvent] {
        let now = Timestamp.wholeSeconds(now)
        let hash = String(StableHash.fnv1a([calibration, entry, Timestamp.format(now)]), radix: 16)
        let prefix = mark == ReviewEvent.calibration ? "cal" : mark
        return [
            ReviewEvent(
                id: "\(prefix)-\(hash)-1", at: now.addingTimeInterval(-60 * 86_400), grade: .easy, device: device,
                synthetic: mark),
            ReviewEvent(
                id: "\(prefix)-\(hash)-2", at: now.addingTimeInterval(-86_400), grade: .easy, device: device,
                synthetic: mark),
        ]
    }
}

extension Library {
    /// The words a calibration asks about: the ranked words of `deck`, or of every vocabulary
    /// deck, each with its translation for meaning checks; at most `Calibration.bankLimit`,
    /// spread evenly over log rank (`Calibration.bank`), so only their files are read.
    public func calibrationItems(deck: String?) throws -> [Calibration.Item] {
        let (launch, ranked) = try rankedWords(deck: deck)
        var items: [Calibration.Item] = []
        for choice in Calibration.bank(ranks: ranked.map(\.rank)) {
            let word = ranked[choice]
            guard let entry = launch.entry(word.number), case let .vocabulary(content) = entry.content else {
                continue
            }
            items.append(
                Calibration.Item(
                    id: entry.id, word: content.word, rank: word.rank,
                    translation: content.translation.isEmpty ? nil : content.translation))
        }
        return items
    }

    /// Every word a calibration of `deck` (or of every vocabulary deck) may warm-start, from the
    /// launch index alone: ids and ranks, for `recordCalibration` (the word is its headword;
    /// no translation).
    public func calibrationCandidates(deck: String?) throws -> [Calibration.Item] {
        let (launch, ranked) = try rankedWords(deck: deck)
        return ranked.map { word in
            Calibration.Item(
                id: launch.index.id(ofEntry: word.number), word: word.headword, rank: word.rank, translation: nil)
        }
    }

    /// The ranked, not ignored words of `deck` or of every vocabulary deck, one per headword
    /// (two decks with the same word would ask it twice), in index order.
    func rankedWords(deck: String?) throws -> (LibraryLaunch, [(number: Int, rank: Int, headword: String)]) {
        if let deck {
            guard let manifest = decks[deck] else {
                throw LibraryError(.notFound, "no deck '\(deck)'; `rote list` shows the decks")
            }
            guard manifest.kind == .vocabulary else {
                throw LibraryError(
                    .notFound,
                    "deck '\(deck)' holds \(manifest.kind.rawValue), not vocabulary; calibration asks about words — give a vocabulary deck"
                )
            }
        }
        let launch = try launch()
        let index = launch.index
        var words: [(number: Int, rank: Int, headword: String)] = []
        var seen = Set<String>()
        for number in 0..<index.entryCount {
            guard let rank = index.rank(ofEntry: number) else { continue }
            let name = index.deck(ofEntry: number)
            if let deck, name != deck { continue }
            guard decks[name]?.kind == .vocabulary, index.status(ofEntry: number) != .ignored,
                let headword = index.headword(ofEntry: number), seen.insert(headword).inserted
            else { continue }
            words.append((number, rank, headword))
        }
        guard !words.isEmpty else {
            throw LibraryError(
                .notFound,
                "no ranked words to ask about\(deck.map { " in deck '\($0)'" } ?? ""); calibration needs vocabulary entries with a `rank:`"
            )
        }
        return (launch, words)
    }

    /// Progress files of every vocabulary deck holding synthetic calibration reviews, read for
    /// a rewrite (a file that does not read cleanly is refused, as every rewrite refuses it).
    func progressWithCalibrationReviews() throws -> [ProgressFile] {
        let folders = decks.filter { $0.value.kind == .vocabulary }.keys.sorted().map {
            "\(paths.progressFolder)/\($0)"
        }
        var files: [ProgressFile] = []
        for path in LibraryLoader().listFiles(root, under: folders).0 where path.hasSuffix(".yaml") {
            // Cheap test first: most files hold no synthetic review.
            guard let data = FileManager.default.contents(atPath: root.appending(path: path).path),
                data.range(of: Data("synthetic: calibration".utf8)) != nil
            else { continue }
            let file = try ReadBeforeRewrite.decode(ProgressFile.self, data, at: path)
            if file.reviews.contains(where: { $0.synthetic == ReviewEvent.calibration }) { files.append(file) }
        }
        return files
    }

    /// The change that takes every synthetic calibration review out of `file`: its new bytes,
    /// state replayed. A file left without reviews is kept, not deleted: another device may
    /// add a real review to it before it syncs, and a deletion against a change would keep
    /// the changed side whole, synthetic reviews and all, where a change against a change
    /// goes through the progress merge, which keeps the undo (`ProgressMerge`).
    func withoutCalibration(_ file: ProgressFile, recorder: ReviewRecorder) throws -> Data {
        try recorder.updated(entry: file.entry) { file in
            file.reviews.removeAll { $0.synthetic == ReviewEvent.calibration }
        }.data
    }

    /// Records a finished calibration in one commit: `lexical_rank` in the profile, the
    /// synthetic reviews of any earlier calibration taken out, and new ones for every ranked
    /// word of the calibrated decks well below the rank (`WarmStart.rankShare`) that the
    /// learner has never studied for real and does not ignore or suspend.
    public func recordCalibration(_ estimate: Calibration.Estimate, items: [Calibration.Item], now: Date = Date())
        throws -> CalibrationOutcome
    {
        try requireProfile()
        return try write(purpose: "calibrate") { git in
            let recorder = ReviewRecorder(root: root, user: user, device: git.device, decks: decks, profile: profile)
            var changes: [String: Data?] = [:]
            var replaced = 0
            var cleared: [String: ProgressFile] = [:]
            for file in try progressWithCalibrationReviews() {
                replaced += file.reviews.filter { $0.synthetic == ReviewEvent.calibration }.count
                changes[paths.progress(file.entry)] = try withoutCalibration(file, recorder: recorder)
                var left = file
                left.reviews.removeAll { $0.synthetic == ReviewEvent.calibration }
                cleared[file.entry] = left
            }
            let calibrationID = UUID().uuidString.lowercased()
            let limit = Double(estimate.lexicalRank) * WarmStart.rankShare
            var warmed = 0
            for item in items where Double(item.rank) <= limit {
                var file = try cleared[item.id] ?? recorder.current(item.id)
                guard file.status == .active, !file.reviews.contains(where: { $0.synthetic == nil }) else { continue }
                if file.reviews.contains(where: { $0.synthetic != nil }) { continue }  // `rote known` said so already
                file.reviews += WarmStart.reviews(
                    entry: item.id, calibration: calibrationID, now: now, device: git.device)
                file.reviews.sort(by: ReviewEvent.replayOrder)
                let deck = String(item.id.split(separator: "/")[0])
                file.state = Scheduler.replay(
                    file.scheduledReviews, entryID: item.id,
                    settings: .forDeck(decks[deck], profile: profile, deckName: deck))
                changes[paths.progress(item.id)] = Data(file.render().utf8)
                warmed += 1
            }
            guard var updated = try ReadBeforeRewrite.read(Profile.self, at: paths.profile, in: root) else {
                throw LibraryError(
                    .notFound, "no learner '\(user)' in this library (\(paths.profile)); use --user NAME")
            }
            updated.lexicalRank = estimate.lexicalRank
            updated.updatedAt = Timestamp.wholeSeconds(now)
            changes[paths.profile] = Data(updated.render().utf8)
            let subject =
                "Calibrate: lexical rank \(estimate.lexicalRank) ± \(Int(estimate.standardError.rounded())), \(warmed) word\(warmed == 1 ? "" : "s") warm-started"
            try git.apply(
                changes: changes,
                message: CommitMessage(subject: subject))
            return CalibrationOutcome(
                lexicalRank: estimate.lexicalRank, standardError: estimate.standardError, questions: estimate.questions,
                warmStarted: warmed, replaced: replaced)
        }
    }

    /// `rote calibrate --undo`: takes every synthetic calibration review out of the learner's
    /// progress and `lexical_rank` out of the profile, in one commit; real reviews stay.
    /// Returns how many words lost their synthetic reviews.
    public func undoCalibration(now: Date = Date()) throws -> Int {
        try requireProfile()
        return try write(purpose: "calibrate --undo") { git in
            let recorder = ReviewRecorder(root: root, user: user, device: git.device, decks: decks, profile: profile)
            var changes: [String: Data?] = [:]
            let files = try progressWithCalibrationReviews()
            for file in files { changes[paths.progress(file.entry)] = try withoutCalibration(file, recorder: recorder) }
            guard var updated = try ReadBeforeRewrite.read(Profile.self, at: paths.profile, in: root) else { return 0 }
            if updated.lexicalRank != nil || !files.isEmpty {
                updated.lexicalRank = nil
                updated.updatedAt = Timestamp.wholeSeconds(now)
                changes[paths.profile] = Data(updated.render().utf8)
            }
            guard !changes.isEmpty else { return 0 }
            let subject =
                "Calibrate --undo: synthetic reviews of \(files.count) word\(files.count == 1 ? "" : "s") removed"
            try git.apply(
                changes: changes,
                message: CommitMessage(subject: subject))
            return files.count
        }
    }
}
