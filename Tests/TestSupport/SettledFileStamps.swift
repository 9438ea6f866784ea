import RoteStore
public import Testing

/// Runs a test (or every test of a suite) with `FileStamp.racyWindow` at 0: a file's stamp is
/// trusted as soon as it is taken, so a test that wants a settled launch index or check cache
/// need not wait two seconds for the files it has just written to settle.
///
/// ```swift
/// @Suite(.settledFileStamps) struct LaunchIndexTests { … }
/// ```
public struct SettledFileStamps: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await FileStamp.$racyWindow.withValue(0) { try await function() }
    }
}

extension Trait where Self == SettledFileStamps {
    /// File stamps trusted at once: no racy window (see `SettledFileStamps`).
    public static var settledFileStamps: Self { SettledFileStamps() }
}
