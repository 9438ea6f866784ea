import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers a request the HTTP parser cannot read — an address and headers over its 80 KiB
/// (a 100 KB query string), a malformed request line — with the API's JSON error, where
/// Hummingbird would answer an empty 400: every client mistake gets a 4xx that says what
/// went wrong. It sits behind the HTTP codec and sees the parser's error before Hummingbird.
///
/// An error while a request's body is still being read belongs to that request, which the
/// router is answering: it goes on to Hummingbird. An error after a request was read whole
/// but before its answer went out (a pipelined request behind it) waits for that answer, so
/// the two answers never interleave.
final class UnreadableRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Requests whose head came in and whose answer has not ended yet.
    private var unanswered = 0
    /// A request's head came in and its end has not.
    private var reading = false
    private var waiting: HTTPParserError?
    /// The JSON error went out: the parser's later complaints about the rest of the request
    /// are the same mistake.
    private var answered = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            reading = true
            unanswered += 1
        case .end: reading = false
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let ended = if case .end = unwrapOutboundIn(data) { true } else { false }
        context.write(data, promise: promise)
        guard ended else { return }
        unanswered = max(0, unanswered - 1)
        if unanswered == 0, let waiting {
            self.waiting = nil
            answer(waiting, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if answered { return }
        guard let parseError = error as? HTTPParserError, !reading else {
            context.fireErrorCaught(error)
            return
        }
        if unanswered == 0 { answer(parseError, context: context) } else { waiting = parseError }
    }

    /// The JSON error, with the headers every answer carries, and the connection closed: the
    /// parser cannot find where the next request would start. The sending side closes first and
    /// the rest of the request is read and dropped for a moment: closing at once, with the
    /// client still sending, resets the connection and loses the answer on its way.
    private func answer(_ error: HTTPParserError, context: ChannelHandlerContext) {
        answered = true
        let refusal =
            error == .headerOverflow
            ? WebError(
                .requestHeaderFieldsTooLarge, "too_large",
                "the request's address and headers are over 80 KiB; send long text in the body of a POST")
            : WebError(.badRequest, "bad_request", "the request is not HTTP/1.1 that the server can read (\(error))")
        let body = JSONReply.errorBody(refusal)
        var head = HTTPResponse(status: refusal.status)
        head.headerFields = [
            .contentType: "application/json; charset=utf-8", .contentLength: "\(body.count)", .connection: "close",
            .contentSecurityPolicy: AccessPolicy.contentSecurityPolicy, .cacheControl: "no-store",
        ]
        head.headerFields[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(bytes: body))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            let closed = bound.value.eventLoop.makePromise(of: Void.self)
            closed.futureResult.whenFailure { _ in bound.value.close(promise: nil) }
            bound.value.close(mode: .output, promise: closed)
            bound.value.eventLoop.scheduleTask(in: .seconds(2)) { bound.value.close(promise: nil) }
        }
    }
}
