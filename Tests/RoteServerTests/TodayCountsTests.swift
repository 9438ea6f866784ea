import Foundation
import HTTPTypes
import Hummingbird
import RoteLibrary
import RoteServer
import Study
import Testing

/// Issue #33 item 3: the numbers of Today agree with Stats and with the sessions Today's
/// buttons start.
@Suite struct TodayCountsTests {
    @Test func todaysDueAndStatsDueTodayAgreeAndEachDeckCardIsItsOwnSession() async throws {
        let served = await WebAPITests.Served()
        let (todayBody, statsBody) = try await served.test { client in
            let today = try await client.execute(uri: "/api/today", method: .get, headers: WebAPITests.headers())
            let stats = try await client.execute(uri: "/api/stats", method: .get, headers: WebAPITests.headers())
            return (Data(today.body.readableBytesView), Data(stats.body.readableBytesView))
        }
        let today = try #require(try JSONSerialization.jsonObject(with: todayBody) as? [String: Any])
        let stats = try #require(try JSONSerialization.jsonObject(with: statsBody) as? [String: Any])
        let due = try #require(today["due"] as? Int)
        let later = try #require(today["due_later_today"] as? Int)
        #expect(today["due_today"] as? Int == due + later)
        #expect(
            stats["due_today"] as? Int == due + later,
            "Today: \(due) now + \(later) later; Stats: \(stats["due_today"] ?? "?")")
        let decks = try #require(today["decks"] as? [[String: Any]])
        #expect(decks.count > 1)
        let library = try Library(root: served.root, user: "demo")
        for deck in decks {
            let name = try #require(deck["name"] as? String)
            let start = try library.startStudy(decks: [name], limits: StudyLimits(), planOnly: true)
            #expect(deck["due"] as? Int == start.plan.due.count, "\(name): due")
            #expect(deck["new"] as? Int == start.plan.new.count, "\(name): new, as its button's session has them")
        }
    }
}
