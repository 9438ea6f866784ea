import Foundation
import Git
public import RoteModel

/// Why a library could not be found, opened or created, with what to do about it.
public struct LibraryError: RoteError {
    public struct Code: RoteErrorCode {
        public typealias Failure = LibraryError
        private enum Wrapped: String, Sendable {
            case notALibrary, notAGitRepository, alreadyExists, unreadable, invalidUser, gitFailure, notFound,
                invalidName, invalidValue, consentRequired, busy, writeFailed, writeRefused, uncommittedChanges,
                wrongKind, outOfOrder, dependedOn, unexpected
        }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }
        public var description: String { wrapped.rawValue }

        public static let notALibrary = Code(.notALibrary)
        public static let notAGitRepository = Code(.notAGitRepository)
        public static let alreadyExists = Code(.alreadyExists)
        public static let unreadable = Code(.unreadable)
        public static let invalidUser = Code(.invalidUser)
        public static let gitFailure = Code(.gitFailure)
        public static let notFound = Code(.notFound)
        /// A name given to something other than a learner (a device) that Rote cannot keep.
        public static let invalidName = Code(.invalidName)
        /// A value out of its range (an interest's weight).
        public static let invalidValue = Code(.invalidValue)
        /// The learner has not agreed to Rote keeping this kind of data (seed 004's consent).
        public static let consentRequired = Code(.consentRequired)
        /// Another writer holds the library (`cause`: the `LibraryLock.Busy` naming it), or a
        /// live git process holds one of git's own locks.
        public static let busy = Code(.busy)
        /// A file could not be written (a full disk, a permission): `cause` is the
        /// `AtomicFile.WriteError`.
        public static let writeFailed = Code(.writeFailed)
        /// A write the library's own files refuse (a symbolic link or `..` on the way out of
        /// the library): the learner mends the library. `cause` is the `AtomicFile.WriteError`.
        public static let writeRefused = Code(.writeRefused)
        /// The write would overwrite changes not yet committed.
        public static let uncommittedChanges = Code(.uncommittedChanges)
        /// A deck of another kind than the operation takes (a vocabulary deck as seed JSON).
        public static let wrongKind = Code(.wrongKind)
        /// A step asked for before the one it needs (purging history before the erasure).
        public static let outOfOrder = Code(.outOfOrder)
        /// A later change depends on what was to be undone (`rote undo`); the message names it.
        public static let dependedOn = Code(.dependedOn)
        /// An error no Rote code names (from the system or a library underneath), kept as
        /// `cause`.
        public static let unexpected = Code(.unexpected)
    }

    public let code: Code
    public let message: String
    public let cause: (any Error)?

    public init(_ code: Code, _ message: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }
}

extension LibraryError {
    /// `error` in Rote's one shape (`RoteError`), as a library call throws it: a `RoteError`
    /// as it is; the lower-level errors underneath a library — another writer's lock, a file
    /// that could not be written, libgit2's — as a `LibraryError` with the same message and
    /// the original as its `cause`, so a caller matches codes and still reaches the detail.
    public static func surfaced(_ error: any Error) -> any Error {
        switch error {
        case is any RoteError: error
        case let busy as LibraryLock.Busy: LibraryError(.busy, busy.description, cause: busy)
        case let write as AtomicFile.WriteError:
            LibraryError(write.refused ? .writeRefused : .writeFailed, write.description, cause: write)
        case let git as GitError: LibraryError(.gitFailure, git.description, cause: git)
        case let cocoa as CocoaError:
            LibraryError(
                .unexpected,
                "\(cocoa.localizedDescription)\(cocoa.filePath.map { " (\($0))" } ?? ""); check the file and its folder's permissions, then try again",
                cause: cocoa)
        default: LibraryError(.unexpected, "\(error)", cause: error)
        }
    }

    /// Runs `body`, throwing what it throws as `surfaced` words it.
    public static func surfacing<Result>(_ body: () throws -> Result) throws -> Result {
        do { return try body() } catch { throw surfaced(error) }
    }

    /// `surfacing` for an async `body`.
    public static func surfacingAsync<Result>(_ body: () async throws -> Result) async throws -> Result {
        do { return try await body() } catch { throw surfaced(error) }
    }
}
