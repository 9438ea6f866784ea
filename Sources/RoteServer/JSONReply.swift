import Foundation
import HTTPTypes
import Hummingbird
import LetterTracing
import RoteModel
import RoteStore
import Study

/// JSON in and out: snake_case keys, ISO-8601 dates, errors as `{"error": {"code", "message"}}`.
enum JSONReply {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.format(date))
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func ok(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try encoder.encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func error(_ error: WebError) -> Response {
        Response(
            status: error.status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: errorBody(error))))
    }

    /// `{"error": {"code": "…", "message": "…"}}`.
    static func errorBody(_ error: WebError) -> Data {
        struct Body: Encodable {
            struct Detail: Encodable { var code: String, message: String, detail: String? }
            var error: Detail
        }
        return (try? encoder.encode(Body(error: .init(code: error.code, message: error.message, detail: error.detail))))
            ?? Data("{\"error\":{\"code\":\"internal\"}}".utf8)
    }

    /// A request's JSON body, read up to `limit` bytes (413 beyond), decoded as `T` (400 when it does not decode).
    static func body<T: Decodable>(_ type: T.Type, of request: Request, limit: Int) async throws -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch {
            throw WebError(.contentTooLarge, "too_large", "the request body is over \(limit / 1024) KiB")
        }
        return try decode(T.self, from: Data(buffer: buffer))
    }

    /// A JSON body decoded as `T` (400 when it does not decode): what every call that takes a
    /// body reads it with, and what the `web-request` fuzz target feeds.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if let place = NestingLimit.placeTooDeep(json: data) {
            throw WebError(
                .badRequest, "bad_json",
                "the JSON body at line \(place.line), column \(place.column): \(NestingLimit.jsonMessage)")
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(T.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw WebError(.badRequest, "bad_json", "the JSON body needs \"\(key.stringValue)\"")
        } catch let DecodingError.typeMismatch(_, context) {
            throw WebError(
                .badRequest, "bad_json",
                "the JSON body has the wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))")
        } catch {
            throw WebError(.badRequest, "bad_json", "the request body is not the JSON this call takes; see docs/web.md")
        }
    }
}

extension Data {
    init(buffer: ByteBuffer) {
        self = buffer.getBytes(at: buffer.readerIndex, length: buffer.readableBytes).map { Data($0) } ?? Data()
    }
}

extension WebError {
    /// The answer for an error the libraries throw, which already says what went wrong: one
    /// shape (`RoteError`), answered by its code. The busy lock's holder is its `cause`.
    static func from(_ error: any Error) -> WebError {
        if let error = error as? WebError { return error }
        if let misfit = error as? StudySession.ActionError {
            return WebError(.badRequest, misfit.code.rawValue, misfit.message)
        }
        switch LibraryError.surfaced(error) {
        case LibraryError.Code.notFound: return WebError(.notFound, "not_found", "\(error)")
        case let error as LibraryError where error.code == .busy:
            guard let busy = error.cause as? LibraryLock.Busy else {
                return WebError(.conflict, "busy", error.message, detail: nil)
            }
            guard busy.heldByThisProcess else {
                return WebError(.conflict, "busy", error.message, detail: busy.holder)
            }
            // The server's own writer holds the library: no other process to name.
            return busy.purpose == "study"
                ? WebError(
                    .conflict, "session_open",
                    "a study session is open in this server and holds the library; finish it (or quit it), then try again"
                )
                : WebError(
                    .conflict, "saving",
                    "the server is still saving an earlier change (\(busy.purpose ?? "a write")); try again in a moment"
                )
        // A write the library's own files refuse (a linked progress folder): the learner mends
        // the library, as for any other `LibraryError`; a full disk, or anything unforeseen,
        // stays a 500.
        case LibraryError.Code.writeFailed, LibraryError.Code.gitFailure, LibraryError.Code.unexpected:
            return WebError(.internalServerError, "internal", "the server could not do that: \(error)")
        case let error as LibraryError: return WebError(.unprocessableContent, "library", error.message)
        case let error as LetterAttemptError: return WebError(.badRequest, "bad_attempt", error.description)
        case let future as Timestamp.FutureTime: return WebError(.badRequest, "bad_attempt", future.description)
        case let error as SyncError: return WebError(.conflict, "sync", error.message)
        case let error: return WebError(.internalServerError, "internal", "the server could not do that: \(error)")
        }
    }
}
