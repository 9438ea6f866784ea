public import Foundation

/// The fsrs-rs fixture (`Tests/SchedulingTests/Fixtures/fsrs-rs/README.md`): simulated
/// histories and what fsrs-rs computed on them, for the optimizer's tests and the CLI's.
public enum FSRSRsFixture {
    public static let folder = Checkout.root.appending(path: "Tests/SchedulingTests/Fixtures/fsrs-rs")
    /// The histories, as `rote replay`'s JSON lines.
    public static var historiesFile: URL { folder.appending(path: "histories.jsonl") }

    public struct Scored: Decodable, Sendable {
        public var parameters: [Double]
        public var log_loss: Double
        public var rmse_bins: Double
    }

    public struct Expected: Decodable, Sendable {
        public var items: Int
        public var first_interval_items: Int
        public var defaults: Scored
        public var truth: Scored
        public var fsrs_rs_fit: Scored
        public var pretrained_initial_stability: [Double]
    }

    public static func expected() throws -> Expected {
        try JSONDecoder().decode(Expected.self, from: Data(contentsOf: folder.appending(path: "expected.json")))
    }
}
