import Foundation
import RoteModel
import Scheduling
import Testing

/// Replay is a pure function of the set of events and the settings.
@Suite struct SchedulerTests {
    static let settings: [SchedulerSettings] = [
        .default, .unfuzzed, .sm2Unfuzzed, try! SchedulerSettings(scheduler: .sm2),
    ]

    @Test(arguments: settings)
    func noEventsMeansNoState(settings: SchedulerSettings) {
        #expect(Scheduler.replay([], entryID: "x", settings: settings) == nil)
        #expect(Scheduler(settings: settings).history([], entryID: "x").isEmpty)
    }

    @Test(arguments: settings)
    func shuffledEventsGiveTheSameState(settings: SchedulerSettings) {
        var generator = SeededGenerator(seed: 3)
        for entry in 0..<100 {
            var time = t0
            let events = (0..<15).map { index in
                time += Double(generator.next(upperBound: UInt64(20 * day)))
                return ReviewEvent(
                    id: UUID(uuid: uuidBytes(&generator)).uuidString.lowercased(), at: time,
                    grade: Grade(rawValue: Int(generator.next(upperBound: UInt64(4))) + 1)!)
            }
            let entryID = "deck/e\(entry)"
            let expected = Scheduler.replay(events, entryID: entryID, settings: settings)
            for _ in 0..<3 {
                #expect(
                    Scheduler.replay(events.shuffled(using: &generator), entryID: entryID, settings: settings)
                        == expected)
            }
        }
    }

    @Test(arguments: settings)
    func equalTimesAreOrderedByID(settings: SchedulerSettings) {
        let a = ReviewEvent(id: "a", at: t0, grade: .good)
        let b = ReviewEvent(id: "b", at: t0, grade: .again)
        let ab = Scheduler.replay([a, b], entryID: "x", settings: settings)
        #expect(Scheduler.replay([b, a], entryID: "x", settings: settings) == ab)
        // a (good) then b (again): the last answer was again.
        #expect(ab?.step == 0)
        #expect(ab == Scheduler(settings: settings).history([a, b], entryID: "x").last)
    }

    @Test(arguments: settings)
    func aRepeatedEventCountsOnce(settings: SchedulerSettings) {
        let events = reviews([.good, .good, .hard], every: 3 * day)
        let doubled = events + [events[1]]
        #expect(
            Scheduler.replay(doubled, entryID: "x", settings: settings)
                == Scheduler.replay(events, entryID: "x", settings: settings))
    }

    @Test(arguments: settings)
    func historyIsReplayOfEveryPrefixAndNextExtendsIt(settings: SchedulerSettings) {
        let events = reviews([.again, .good, .good, .easy, .again, .hard, .good], every: 2 * day + 3600)
        let scheduler = Scheduler(settings: settings)
        let states = scheduler.history(events, entryID: "deck/x")
        #expect(states.count == events.count)
        var state: MemoryState? = nil
        for (index, event) in events.enumerated() {
            #expect(states[index] == scheduler.replay(Array(events.prefix(index + 1)), entryID: "deck/x"))
            state = scheduler.next(after: state, review: event, entryID: "deck/x")
            #expect(state == states[index])
        }
        #expect(states.last?.reps == events.count)
        #expect(states.last?.lastReview == events.last?.at)
    }

    @Test(arguments: settings)
    func recallFallsOverTime(settings: SchedulerSettings) {
        let scheduler = Scheduler(settings: settings)
        let state = scheduler.replay(reviews([.good, .good, .good], every: day), entryID: "x")!
        let last = state.lastReview!
        let recalls = [0.0, 1, 5, 30, 300].map { scheduler.retrievability(of: state, at: last + $0 * day) }
        #expect(recalls[0] == 1)
        #expect(zip(recalls, recalls.dropFirst()).allSatisfy { $0 > $1 })
        #expect(recalls.allSatisfy { $0 > 0 && $0 <= 1 })
    }

    @Test func sm2RecallIsNinetyPercentWhenDue() {
        let state = MemoryState(phase: .review, ease: 2.5, interval: 12, due: t0 + 12 * day, lastReview: t0)
        let recall = Scheduler.retrievability(of: state, at: t0 + 12 * day, settings: .sm2Unfuzzed)
        #expect(abs(recall - 0.9) < 1e-12)
    }

    // MARK: Settings

    @Test func settingsAreBuiltFromPlainValues() throws {
        let settings = try SchedulerSettings(
            scheduler: SchedulerKind(name: "SM2"), desiredRetention: 0.85, learningSteps: [30, 300],
            maximumInterval: 3650, enableFuzzing: false)
        #expect(settings.scheduler == .sm2)
        #expect(settings.desiredRetention == 0.85)
        #expect(settings.learningSteps == [30, 300])
        #expect(settings.relearningSteps == [600])
        #expect(settings.maximumInterval == 3650)
        #expect(!settings.enableFuzzing)
        #expect(SchedulerKind(name: "anki") == nil)
    }

    @Test func badSettingsAreRefusedWithACode() {
        func code(_ build: () throws -> SchedulerSettings) -> SchedulerSettingsError.Code? {
            do {
                _ = try build()
                return nil
            } catch {
                return (error as? SchedulerSettingsError)?.code ?? SchedulerSettingsError.Code(rawValue: "other")
            }
        }
        var outOfBounds = FSRSParameters.defaultValues
        outOfBounds[4] = 11
        #expect(
            code { try SchedulerSettings(parameters: Array(FSRSParameters.defaultValues.prefix(20))) }
                == .parameterCount)
        #expect(code { try SchedulerSettings(parameters: outOfBounds) } == .parameterOutOfBounds)
        #expect(code { try SchedulerSettings(desiredRetention: 1) } == .desiredRetention)
        #expect(code { try SchedulerSettings(desiredRetention: 0) } == .desiredRetention)
        #expect(code { try SchedulerSettings(learningSteps: [60, -1]) } == .steps)
        #expect(code { try SchedulerSettings(learningSteps: [60, .infinity]) } == .steps)
        #expect(
            code { try SchedulerSettings(learningSteps: [0, 600, 2700]) } == nil,
            "0 is a step: due again at once (seed 000)")
        #expect(code { try SchedulerSettings(relearningSteps: [-5]) } == .steps)
        #expect(code { try SchedulerSettings(maximumInterval: 0) } == .maximumInterval)
        #expect(code { try SchedulerSettings(sm2: SM2Settings(startingEase: 1.2)) } == .sm2)
        #expect(code { try SchedulerSettings(parameters: FSRSParameters.defaultValues) } == nil)
    }

    @Test func everyParameterBoundIsChecked() throws {
        #expect(FSRSParameters.lowerBounds.count == 21 && FSRSParameters.upperBounds.count == 21)
        for index in 0..<21 {
            for value in [FSRSParameters.lowerBounds[index] - 0.0001, FSRSParameters.upperBounds[index] + 0.0001] {
                var values = FSRSParameters.defaultValues
                values[index] = value
                #expect(throws: SchedulerSettingsError.self) { try FSRSParameters(values) }
            }
            var atBounds = FSRSParameters.defaultValues
            atBounds[index] = FSRSParameters.lowerBounds[index]
            _ = try FSRSParameters(atBounds)
            atBounds[index] = FSRSParameters.upperBounds[index]
            _ = try FSRSParameters(atBounds)
        }
    }

    @Test func errorsMatchByCodeInCatch() {
        do {
            _ = try SchedulerSettings(parameters: [1, 2, 3])
            Issue.record("expected an error")
        } catch SchedulerSettingsError.Code.parameterCount {
            // matched by code
        } catch {
            Issue.record("wrong error \(error)")
        }
    }
}

private func uuidBytes(_ generator: inout SeededGenerator) -> uuid_t {
    let a = generator.next()
    let b = generator.next()
    func byte(_ word: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: word >> (8 * index)) }
    return (
        byte(a, 0), byte(a, 1), byte(a, 2), byte(a, 3), byte(a, 4), byte(a, 5), byte(a, 6), byte(a, 7),
        byte(b, 0), byte(b, 1), byte(b, 2), byte(b, 3), byte(b, 4), byte(b, 5), byte(b, 6), byte(b, 7)
    )
}
