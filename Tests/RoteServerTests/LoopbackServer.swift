import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import RoteServer
import ServiceLifecycle

/// `rote serve`'s own server (`WebServer.application`) on 127.0.0.1 at a free port, for as long
/// as `body` runs, with a client that speaks plain HTTP/1.1 to it.
///
/// HummingbirdTesting did this before, but its HTTP client brings a TLS stack (NIOSSL,
/// BoringSSL, AsyncHTTPClient) that took 4 min 22 s of a clean CI build on two cores for
/// tests that never use TLS. The tests go through the real socket, parser and handlers, as a
/// browser does.
func withLoopbackServer<Value: Sendable>(
    _ app: WebApp, _ body: @Sendable (LoopbackClient) async throws -> Value
) async throws -> Value {
    let (ports, reportPort) = AsyncStream.makeStream(of: Int.self)
    let application = WebServer.application(app: app, host: "127.0.0.1", port: 0) { reportPort.yield($0) }
    let services = ServiceGroup(
        configuration: .init(services: [application], logger: Logger(label: "rote-serve-tests")))
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await services.run() }
        var listening = ports.makeAsyncIterator()
        guard let port = await listening.next() else { throw LoopbackClient.Failure.serverDidNotStart }
        do {
            let value = try await body(LoopbackClient(port: port))
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
            return value
        } catch {
            await services.triggerGracefulShutdown()
            throw error
        }
    }
}

/// One answer of the server, whole.
struct TestResponse: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: ByteBuffer
}

/// Sends each request on a connection of its own, so requests sent at once (a double click)
/// reach the server at once.
struct LoopbackClient: Sendable {
    enum Failure: Error { case serverDidNotStart, noAnswer }

    let port: Int

    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil)
        async throws -> TestResponse
    {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                        wrappingChannelSynchronously: channel)
                }
            }
        var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method.rawValue), uri: uri)
        for field in headers { head.headers.add(name: field.name.rawName, value: field.value) }
        if !head.headers.contains(name: "host") { head.headers.add(name: "host", value: "127.0.0.1:\(port)") }
        head.headers.replaceOrAdd(name: "connection", value: "close")
        if let body { head.headers.replaceOrAdd(name: "content-length", value: String(body.readableBytes)) }
        return try await channel.executeThenClose { inbound, outbound in
            // A server that refuses a request (an address too long to parse) answers and closes
            // before reading it all: the write fails, and the answer is still there to read.
            do {
                try await outbound.write(.head(head))
                if let body { try await outbound.write(.body(.byteBuffer(body))) }
                try await outbound.write(.end(nil))
            } catch {}
            var status: HTTPResponse.Status?
            var fields = HTTPFields()
            var collected = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let answer):
                    status = HTTPResponse.Status(
                        code: Int(answer.status.code), reasonPhrase: answer.status.reasonPhrase)
                    for (name, value) in answer.headers {
                        if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
                    }
                case .body(var bytes):
                    collected.writeBuffer(&bytes)
                case .end:
                    guard let status else { throw Failure.noAnswer }
                    return TestResponse(status: status, headers: fields, body: collected)
                }
            }
            throw Failure.noAnswer
        }
    }
}
