import Foundation
package import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Runs `rote serve`: binds, prints the address with its token (in the fragment) first, and
/// on SIGINT or SIGTERM stops taking requests, then saves a study session in progress and
/// commits it, and makes every commit still queued behind the writes it answered.
package enum WebServer {
    package static func run(app: WebApp, host: String, port: Int, announce: @escaping @Sendable (String) -> Void)
        async throws
    {
        let token = app.policy.token
        app.commitLeftovers()
        let application = Self.application(app: app, host: host, port: port) { bound in
            app.listening(on: bound)
            app.warmUp()
            let shownHost = host.contains(":") ? "[\(host)]" : host
            announce("http://\(shownHost):\(bound)/#token=\(token)")
        }
        try await application.runService()
        app.stopSession()
    }

    /// The server `run` runs: the app's routes over HTTP/1.1, with a request the parser
    /// cannot read answered as JSON like every other client mistake
    /// (`UnreadableRequestHandler`). `onServerRunning` gets the port it listens on.
    package static func application(
        app: WebApp, host: String, port: Int, onServerRunning: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> Application<RouterResponder<BasicRequestContext>> {
        var logger = Logger(label: "rote-serve")
        logger.logLevel =
            ProcessInfo.processInfo.environment["ROTE_SERVE_LOG"].flatMap { Logger.Level(rawValue: $0) } ?? .warning
        return Application(
            router: app.router(),
            server: .http1(configuration: .init(additionalChannelHandlers: [UnreadableRequestHandler()])),
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}
