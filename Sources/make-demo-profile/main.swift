import Foundation
// Writes profiles/demo: a demo learner with four weeks of plausible study history on the
// starter decks, deterministic from a seed, so `rote show`, `rote log` and `rote stats` have
// something real to show and tests have a history to check.
//
// Usage: make-demo-profile [OUTPUT-FOLDER] (default: profiles/demo of the current library)
//        make-demo-profile --replay [OUTPUT-FOLDER]: keep the history, derive the states again
//
// The learner is simulated: each study day they review what FSRS says is due and learn a few
// new entries; whether they remember is drawn from FSRS's own retrievability with a seeded
// generator. Reviews go into progress files with their replayed state, sessions into
// session files — the same formats `rote study` writes.
import RoteModel
import RoteStore
import Scheduling

extension SeededGenerator {
    mutating func uuid() -> String {
        let a = next()
        let b = next()
        let hex = String(format: "%016llx%016llx", a, b)
        let chars = Array(hex)
        // Version 4, variant 10xx, written the usual 8-4-4-4-12 way.
        return
            "\(String(chars[0..<8]))-\(String(chars[8..<12]))-4\(String(chars[13..<16]))-\(["8", "9", "a", "b"][Int(b % 4)])\(String(chars[17..<20]))-\(String(chars[20..<32]))"
    }
}

let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
let arguments = CommandLine.arguments.dropFirst().filter { $0 != "--replay" }
let output = URL(fileURLWithPath: arguments.first ?? LibraryPaths(user: "demo").folder, relativeTo: root)
    .standardizedFileURL
let library = try LibraryLoader(users: .only("demo"), includeSessions: false).load(root)

// `--replay`: keep the demo learner's history and only derive each progress file's state
// again, with the decks' settings as they are now (after a deck's learning steps changed).
if CommandLine.arguments.contains("--replay") {
    let learner = library.profiles["demo"]
    var replayed = 0
    for (id, file) in library.progress["demo"] ?? [:] {
        let deck = String(id.split(separator: "/")[0])
        var updated = file
        updated.state = Scheduler.replay(
            file.reviews, entryID: id, settings: .forDeck(library.decks[deck], profile: learner, deckName: deck))
        guard updated.state != file.state else { continue }
        try AtomicFile.write(updated.render(), to: output.appending(path: "progress/\(id).yaml"))
        replayed += 1
    }
    print("replayed \(output.path): \(replayed) progress file\(replayed == 1 ? "" : "s") with a new state")
    exit(0)
}
let user = "demo"
let start = Timestamp.parse("2026-10-24T00:00:00Z")!
let days = 28
var random = SeededGenerator(seed: 20_261_121)

var profile = Profile(
    user: user, name: "Demo Learner", createdAt: start.addingTimeInterval(18 * 3600),
    updatedAt: start.addingTimeInterval(18 * 3600))
profile.settings.dailyGoal = 20
profile.settings.newPerDay = 8
profile.settings.reviewsPerDay = 200
profile.settings.workingSet = 5
profile.settings.desiredRetention = 0.9
profile.settings.nativeLanguage = "ar"
profile.settings.targetLanguage = "en"
profile.settings.typedAnswers = false
profile.settings.leftHanded = false
// The demo learner studies passages, which Rote keeps only with consent (seed 004).
profile.consent.append(
    Profile.Consent(
        topic: Profile.passagesConsentTopic, granted: true, at: start.addingTimeInterval(18 * 3600),
        version: Profile.passagesConsentVersion))
profile.settings.haptics = true
profile.lexicalRank = 400
profile.interests = [("family", 0.6), ("school", 0.4)]
profile.ignoredWords = ["the"]

// What the learner takes on each day: vocabulary in rank order, a verse every third day,
// two maths questions.
@MainActor func entries(of deck: String) -> [Entry] { library.entries.filter { $0.deck == deck } }
var newQueues: [(deck: String, perDay: Int, every: Int, queue: [Entry])] = [
    // The learner's ignored words never enter a queue, as in `rote study`.
    (
        "english-a1", 6, 1,
        entries(of: "english-a1").filter { entry in
            if case let .vocabulary(word) = entry.content {
                return !profile.ignoredWords.contains(word.word)
            } else {
                return true
            }
        }
    ),
    ("kjv", 1, 3, entries(of: "kjv")),
    (
        "math", 2, 1,
        entries(of: "math").filter {
            if case let .question(q) = $0.content { return q.published } else { return false }
        }
    ),
]
var reviews: [String: [ReviewEvent]] = [:]
var states: [String: MemoryState] = [:]
var sessions: [SessionFile] = []
let schedulers = Dictionary(
    uniqueKeysWithValues: library.decks.map {
        ($0.key, Scheduler(settings: .forDeck($0.value, profile: profile, deckName: $0.key)))
    })
let entryByID = Dictionary(uniqueKeysWithValues: library.entries.map { ($0.id, $0) })

/// The question a simulated attempt answers, and the text given.
@MainActor func attempt(for entry: Entry, correct: Bool) -> (String, String) {
    switch entry.content {
    case let .vocabulary(word):
        let question = word.questions.randomElement(using: &random)!
        return (question.id, correct ? question.answer : question.distractors.randomElement(using: &random)?.text ?? "")
    case let .passage(passage):
        let words = passage.text.split(separator: " ")
        return ("recall", correct ? passage.text : words.prefix(max(1, words.count / 2)).joined(separator: " "))
    case let .question(question):
        switch question.payload {
        case let .mcqSingle(_, choices, solution):
            return ("mcq_single", correct ? choices[solution] : choices[(solution + 1) % choices.count])
        case let .reorderSteps(_, _, solution):
            let order = correct ? solution : Array(solution.reversed())
            return ("reorder_steps", order.map { String($0) }.joined(separator: ","))
        }
    case .letter:
        return ("trace", "")
    }
}

for day in 0..<days {
    // A learner skips about one day in five.
    if Double.random(in: 0..<1, using: &random) < 0.2 { continue }
    let device = day % 3 == 2 ? "desktop" : "laptop"
    var now = start.addingTimeInterval(
        Double(day) * 86_400 + 18 * 3600 + Double(Int.random(in: 0..<10_800, using: &random)))
    let sessionStart = now
    var session = SessionFile(
        id: random.uuid(), user: user, device: device, kind: .mixed, startedAt: Timestamp.wholeSeconds(now))
    var decksSeen = Set<String>()
    var due = states.filter { $0.value.due <= now }.map(\.key).sorted()
    var fresh: [String] = []
    for index in newQueues.indices where day % newQueues[index].every == 0 {
        let take = newQueues[index].queue.prefix(newQueues[index].perDay)
        fresh += take.map(\.id)
        newQueues[index].queue.removeFirst(take.count)
    }
    session.new = fresh.count
    due += fresh
    // Failed cards come back in the same session until they pass (at most three times).
    var queue = due.map { ($0, 0) }
    while !queue.isEmpty {
        let (id, tries) = queue.removeFirst()
        guard let entry = entryByID[id], let scheduler = schedulers[entry.deck] else { continue }
        let state = states[id]
        let recall = state == nil ? 0.75 : max(0.35, scheduler.retrievability(of: state, at: now))
        let correct = Double.random(in: 0..<1, using: &random) < recall
        let ms = Int.random(in: 1500...(correct ? 7000 : 12_000), using: &random)
        let grade: Grade = !correct ? .again : (ms < 2500 ? .easy : (ms > 6000 ? .hard : .good))
        now = now.addingTimeInterval(Double(ms) / 1000 + Double(Int.random(in: 2...6, using: &random)))
        let event = ReviewEvent(
            id: random.uuid(), at: Timestamp.wholeSeconds(now), grade: grade, ms: ms, device: device)
        reviews[id, default: []].append(event)
        states[id] = scheduler.next(after: state, review: event, entryID: id)
        let (question, answer) = attempt(for: entry, correct: correct)
        session.attempts.append(
            .init(entry: id, question: question, answer: answer, correct: correct, at: event.at, ms: ms))
        session.count(grade)
        decksSeen.insert(entry.deck)
        if !correct, tries < 2 { queue.append((id, tries + 1)) }
    }
    guard !session.attempts.isEmpty else { continue }
    session.decks = library.deckOrder.filter(decksSeen.contains)
    session.kind = session.new == 0 ? .review : (session.new == session.attempts.count ? .learning : .mixed)
    session.endedAt = Timestamp.wholeSeconds(now.addingTimeInterval(5))
    sessions.append(session)
    _ = sessionStart
}

let manager = FileManager.default
try? manager.removeItem(at: output)
profile.updatedAt = sessions.last?.endedAt ?? profile.updatedAt
try AtomicFile.write(profile.render(), to: output.appending(path: "profile.yaml"))
for (id, events) in reviews {
    guard let entry = entryByID[id], let scheduler = schedulers[entry.deck] else { continue }
    let file = ProgressFile(entry: id, state: scheduler.replay(events, entryID: id), reviews: events)
    try AtomicFile.write(file.render(), to: output.appending(path: "progress/\(id).yaml"))
}
for session in sessions {
    let parts = Timestamp.format(session.startedAt).split(separator: "-")
    try AtomicFile.write(
        session.render(), to: output.appending(path: "sessions/\(parts[0])/\(parts[1])/\(session.id).yaml"))
}
let total = reviews.values.map(\.count).reduce(0, +)
print("wrote \(output.path): \(reviews.count) progress files, \(total) reviews, \(sessions.count) sessions")
