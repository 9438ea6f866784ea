import Foundation
import RoteModel
import TestSupport
import Testing

/// Issue #33 item 3: `rote stats` and `rote study --plan` count the same "due today" on a
/// library with an overdue review, a learning step due in ten minutes and a review due in six
/// hours (today or tomorrow, by the zone), in three time zones.
@Suite struct DueTodayCLITests {
    static var binary: String { Checkout.productsDirectory.appending(path: "rote").path }

    @Test(arguments: ["UTC", "America/New_York", "Asia/Tokyo"])
    func statsAndThePlanAgreeOnDueToday(zone: String) async throws {
        let now = Date()
        func stamp(_ seconds: Double) -> String { Timestamp.format(now.addingTimeInterval(seconds)) }
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(
            into: directory,
            overrides: [
                "profiles/ana/progress/words/go.yaml": """
                entry: words/go
                status: active
                state: {phase: learning, step: 0, stability: 2.3, difficulty: 6.4, due: \(stamp(600)), reps: 1, lapses: 0, last_review: \(stamp(-60))}
                reviews:
                  - {id: g1, at: \(stamp(-60)), grade: good, ms: 2000, device: laptop}

                """,
                "profiles/ana/progress/maths/arithmetic/addition/two_plus_two.yaml": """
                entry: maths/arithmetic/addition/two_plus_two
                status: active
                state: {phase: review, stability: 4.0, difficulty: 5.0, due: \(stamp(6 * 3600)), reps: 2, lapses: 0, last_review: \(stamp(-4 * 86400))}
                reviews:
                  - {id: t1, at: \(stamp(-8 * 86400)), grade: good, ms: 3000, device: laptop}
                  - {id: t2, at: \(stamp(-4 * 86400)), grade: good, ms: 3000, device: laptop}

                """,
            ])
        func rote(_ arguments: [String]) async -> Shell.Output {
            await Shell.run(
                Self.binary, ["-C", directory.url.path, "--user", "ana"] + arguments,
                environment: ["NO_COLOR": "1", "TZ": zone])
        }
        let stats = await rote(["stats"])
        #expect(stats.status == 0, "\(stats.stderr)")
        let statsDue = try #require(
            stats.stdout.firstMatch(of: /ana: (\d+) due today/).map { Int($0.output.1)! }, "\(stats.stdout)")
        let plan = await rote(["study", "--plan"])
        #expect(plan.status == 0, "\(plan.stderr)")
        let dueNow = try #require(
            plan.stdout.firstMatch(of: /Study plan for ana: (\d+) due/).map { Int($0.output.1)! }, "\(plan.stdout)")
        let later = plan.stdout.firstMatch(of: /(\d+) more due later today/).map { Int($0.output.1)! } ?? 0
        let beyond =
            plan.stdout.firstMatch(of: /\((\d+) more due beyond today's limit\)/).map { Int($0.output.1)! } ?? 0
        #expect(dueNow + beyond >= 1, "\(zone): words/run is overdue")
        // Within ten minutes of midnight in the zone, the step falls due tomorrow.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: zone))
        if calendar.isDate(now.addingTimeInterval(600), inSameDayAs: now) {
            #expect(later >= 1, "\(zone): the learning step is due later today")
        }
        #expect(statsDue == dueNow + beyond + later, "\(zone): stats \(statsDue), plan \(plan.stdout)")
    }
}
