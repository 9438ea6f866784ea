/// The one shape of Rote's errors, as NIOFS's `FileSystemError`: a `code` to branch on, a
/// `message` a person reads (what went wrong, where, and what to do), and the `cause`, the
/// lower-level error that led to it (a `GitError`, say), kept so callers and tests can match
/// on it rather than on text.
///
/// Each conforming error declares its own extensible `Code`: a struct wrapping a private
/// enum, so new codes can be added without breaking anyone's `switch`. Codes match errors
/// in a `catch` or `case` directly:
///
///     do { try sync.sync() }
///     catch SyncError.Code.network { … }
///
/// `description` is the message alone; it is what the CLI prints.
public protocol RoteError: Error, CustomStringConvertible, Sendable {
    associatedtype Code: RoteErrorCode where Code.Failure == Self
    var code: Code { get }
    /// What went wrong, where, and what to do about it.
    var message: String { get }
    /// The error underneath, when there is one.
    var cause: (any Error)? { get }
}

extension RoteError {
    public var description: String { message }
    /// None, for an error that is where the trouble started.
    public var cause: (any Error)? { nil }
}

/// The code of a `RoteError`: a value to compare, print, and match an error against.
public protocol RoteErrorCode: Hashable, Sendable, CustomStringConvertible {
    associatedtype Failure: RoteError where Failure.Code == Self
}

/// A code that is a case of a small closed enum (an error with a fixed set of reasons) prints
/// as the case's name.
extension RoteErrorCode where Self: RawRepresentable, RawValue == String {
    public var description: String { rawValue }
}

extension RoteErrorCode {
    /// Lets `catch LibraryError.Code.notFound` (or a `case` of a switch over any error) match
    /// an error by its code.
    public static func ~= (code: Self, error: any Error) -> Bool {
        (error as? Failure)?.code == code
    }
}
