import Foundation
import HTTPTypes
import Hummingbird
import RoteModel
import TestSupport
import Testing

/// Issue #31: a 476 KB drawing (under the body limit) took minutes per write, as every read of
/// the letter's attempts went through each point. A drawing has a point limit now, checked
/// before it is scored; and a JSON body nested past the limit is refused before it is decoded.
@Suite struct DrawingLimitWebTests {
    /// `LetterAttempt.maximumPoints`.
    static let maximumPoints = 5000

    static func message(_ response: TestResponse) -> String? {
        ((try? WebAPITests.json(response)) as? [String: Any]).flatMap { $0["error"] as? [String: Any] }?["message"]
            as? String
    }

    @Test func aDrawingOverThePointLimitIsRefusedAndNothingIsWritten() async throws {
        let served = await WebAPITests.Served()
        let commits = await served.commitCount()
        let now = Timestamp.format(Date())
        try await served.test { client in
            for (points, status) in [
                (Self.maximumPoints + 1, HTTPResponse.Status.badRequest), (Self.maximumPoints, .ok),
            ] {
                let drawing = [(0..<points).map { [Double($0 % 100), 50, Double($0)] }]
                let response = try await client.execute(
                    uri: "/api/letters/attempts", method: .post, headers: WebAPITests.headers(),
                    body: WebAPITests.body([
                        "letter": "a", "mode": "trace", "drawing": drawing, "started_at": now, "completed_at": now,
                    ]))
                #expect(response.status == status, "\(points) points")
                if status == .badRequest {
                    #expect(WebAPITests.errorCode(response) == "bad_attempt")
                    #expect(
                        Self.message(response)?.contains("\(points) points, more than the \(Self.maximumPoints)")
                            == true, "\(Self.message(response) ?? "")")
                }
            }
        }
        #expect(await served.commitCount() == commits + 1, "only the drawing within the limit is recorded")
    }

    @Test func aJSONBodyNestedPastTheLimitIsABadRequest() async throws {
        let served = await WebAPITests.Served()
        let deep = String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000)
        try await served.test { client in
            let response = try await client.execute(
                uri: "/api/letters/attempts", method: .post, headers: WebAPITests.headers(),
                body: ByteBuffer(string: "{\"letter\": \"a\", \"drawing\": \(deep)}"))
            #expect(response.status == .badRequest)
            #expect(WebAPITests.errorCode(response) == "bad_json")
            #expect(Self.message(response)?.contains("nest more than") == true, "\(Self.message(response) ?? "")")
        }
    }
}
