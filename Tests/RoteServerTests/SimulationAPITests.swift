import Foundation
import HTTPTypes
import Hummingbird
import RoteLibrary
import RoteModel
import RoteServer
import Testing

/// `GET /api/simulate`, which the Stats page draws: the numbers `rote simulate` gives on the
/// learner's own settings, every day of a year.
@Suite struct SimulationAPITests {
    @Test func answersEveryDayOfAYearOnTheLearnersSettings() async throws {
        let served = await WebAPITests.Served()
        let body = try await served.test { client in
            let response = try await client.execute(uri: "/api/simulate", method: .get, headers: WebAPITests.headers())
            #expect(response.status == .ok)
            return Data(response.body.readableBytesView)
        }
        let answer = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        let days = try #require(answer["simulation"] as? [[String: Any]])
        #expect(answer["days"] as? Int == 365 && days.count == 365)
        let library = try Library(root: served.root, user: "demo")
        #expect(answer["new_per_day"] as? Int == library.profile?.settings.newPerDay ?? 10)
        #expect(answer["deck_size"] as? Int == (try library.ids()).count)
        let memorised = days.compactMap { $0["memorized"] as? Double }
        #expect(memorised.count == 365 && memorised.last! > memorised.first!)
        #expect(days.allSatisfy { ($0["minutes"] as? Double ?? -1) >= 0 && $0["reviews"] is Int && $0["new"] is Int })
    }
}
