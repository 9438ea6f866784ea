import Foundation
import Hummingbird
import Logging
import NIOCore

/// Runs `rote serve`: binds, prints the address with its token first, and on SIGINT or
/// SIGTERM stops taking requests, then saves a study session in progress and commits it, and
/// makes every commit still queued behind the writes it answered.
public enum WebServer {
    public static func run(app: WebApp, host: String, port: Int, announce: @escaping @Sendable (String) -> Void)
        async throws
    {
        var logger = Logger(label: "rote-serve")
        logger.logLevel =
            ProcessInfo.processInfo.environment["ROTE_SERVE_LOG"].flatMap { Logger.Level(rawValue: $0) } ?? .warning
        let token = app.policy.token
        app.commitLeftovers()
        let application = Application(
            router: app.router(),
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                app.listening(on: bound)
                app.warmUp()
                let shownHost = host.contains(":") ? "[\(host)]" : host
                announce("http://\(shownHost):\(bound)/?token=\(token)")
            },
            logger: logger)
        try await application.runService()
        app.stopSession()
    }
}
