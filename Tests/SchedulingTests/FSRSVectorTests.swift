import Foundation
import RoteModel
import Scheduling
import Testing

/// The 300 py-fsrs 6.3.2 reference histories in `Tests/SchedulingTests/Fixtures/fsrs/`, checked review by
/// review: state, step and due exactly, stability and difficulty within 1e-9 relative.
@Suite struct FSRSVectorTests {
    @Test func allReferenceVectorsMatchPyFSRS() throws {
        let url = TestFiles.fsrsVectors
        // A missing file fails the test: the vectors are the proof of py-fsrs parity.
        #expect(FileManager.default.fileExists(atPath: url.path), "missing \(url.path)")
        let vectors = try FSRSVector.load(from: url)
        #expect(vectors.count == 300)
        var reviewsChecked = 0
        for vector in vectors {
            let settings = try vector.settings()
            let events = vector.reviews.enumerated().map { index, review in
                ReviewEvent(
                    id: String(format: "r%04d", index), at: Timestamp.parse(review.at)!,
                    grade: Grade(rawValue: review.rating)!)
            }
            let states = Scheduler(settings: settings).history(events, entryID: vector.id)
            try #require(states.count == vector.reviews.count, "\(vector.id): one state per review")
            for (index, (state, review)) in zip(states, vector.reviews).enumerated() {
                let expect = review.expect
                let place = Comment(rawValue: "\(vector.id) review \(index)")
                #expect(state.phase.rawValue == expect.state, place)
                #expect(state.step == expect.step, place)
                #expect(Timestamp.format(state.due) == expect.due, place)
                #expect(relativeError(state.stability, expect.stability) <= 1e-9, place)
                #expect(relativeError(state.difficulty, expect.difficulty) <= 1e-9, place)
                reviewsChecked += 1
            }
        }
        #expect(reviewsChecked == 4654)
    }

    @Test func vectorsReplayedFromShuffledEventsGiveTheSameFinalState() throws {
        let vectors = try FSRSVector.load(from: TestFiles.fsrsVectors)
        var generator = SeededGenerator(seed: 7)
        for vector in vectors.prefix(50) {
            let settings = try vector.settings()
            let events = vector.reviews.enumerated().map { index, review in
                ReviewEvent(
                    id: String(format: "r%04d", index), at: Timestamp.parse(review.at)!,
                    grade: Grade(rawValue: review.rating)!)
            }
            let inOrder = Scheduler.replay(events, entryID: vector.id, settings: settings)
            let shuffled = Scheduler.replay(events.shuffled(using: &generator), entryID: vector.id, settings: settings)
            #expect(inOrder == shuffled, "\(vector.id)")
            #expect(inOrder.map { Timestamp.format($0.due) } == vector.reviews.last?.expect.due)
        }
    }
}

/// One line of `fsrs6-vectors.jsonl`.
struct FSRSVector: Decodable {
    struct Review: Decodable {
        var at: String
        var rating: Int
        var expect: Expect
    }
    struct Expect: Decodable {
        var state: String
        var step: Int?
        var stability: Double
        var difficulty: Double
        var due: String
    }
    var id: String
    var parameters: [Double]
    var desired_retention: Double
    var learning_steps_s: [Double]
    var relearning_steps_s: [Double]
    var maximum_interval: Int
    var reviews: [Review]

    /// The vectors were computed with fuzz off.
    func settings() throws -> SchedulerSettings {
        try SchedulerSettings(
            parameters: parameters, desiredRetention: desired_retention, learningSteps: learning_steps_s,
            relearningSteps: relearning_steps_s, maximumInterval: maximum_interval, enableFuzzing: false)
    }

    static func load(from url: URL) throws -> [FSRSVector] {
        let text = try String(contentsOf: url, encoding: .utf8)
        let decoder = JSONDecoder()
        return try text.split(separator: "\n").map { try decoder.decode(FSRSVector.self, from: Data($0.utf8)) }
    }
}
