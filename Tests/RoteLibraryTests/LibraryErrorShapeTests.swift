import Foundation
import Git
import RoteLibrary
import RoteModel
import RoteStore
import TestSupport
import Testing

/// Issue #32 item 5: a library call throws one shape of error, a `RoteError` with a code to
/// match, the message the learner reads, and the lower-level error as its `cause`.
@Suite struct LibraryErrorShapeTests {
    static func library() async throws -> (TemporaryDirectory, Library) {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        return (directory, try Library(root: directory.url, user: "ana"))
    }

    /// What `body` threw, as a `LibraryError`; a test failure for anything else.
    static func libraryError(_ body: () throws -> Void) -> LibraryError? {
        do {
            try body()
            Issue.record("the call was to fail")
        } catch let error as LibraryError {
            return error
        } catch {
            Issue.record("a library call threw \(type(of: error)), not a RoteError: \(error)")
        }
        return nil
    }

    /// Another process's writer: the error is `busy`, says who holds the library as before,
    /// and keeps the lock's own `Busy` (its pid and purpose) as the cause.
    @Test func aLibraryAnotherWriterHoldsIsBusyWithTheHolderAsItsCause() async throws {
        let (directory, library) = try await Self.library()
        defer { withExtendedLifetime(directory) {} }
        let entry = try library.entry(named: "words/run")
        let holder = try LibraryLock(root: library.root, purpose: "sync")
        defer { withExtendedLifetime(holder) {} }
        let error = try #require(
            Self.libraryError { _ = try library.change(.status(.suspended), of: [entry], verb: "suspend") })
        #expect(error.code == .busy)
        let busy = try #require(error.cause as? LibraryLock.Busy, "\(String(describing: error.cause))")
        #expect(busy.purpose == "sync")
        #expect(error.message == busy.description)
        #expect(error.message.contains("rote sync"), "\(error.message)")
    }

    /// A progress folder that is a symbolic link is never written through: `writeRefused`,
    /// which the learner mends, with the `AtomicFile.WriteError` as the cause.
    @Test func aWriteTheLibrarysFilesRefuseIsWriteRefused() async throws {
        let (directory, library) = try await Self.library()
        let entry = try library.entry(named: "words/run")
        let elsewhere = TemporaryDirectory("rote-elsewhere")
        let progress = directory.url.appending(path: "profiles/ana/progress/words")
        try FileManager.default.moveItem(at: progress, to: elsewhere.url.appending(path: "words"))
        try FileManager.default.createSymbolicLink(
            atPath: progress.path, withDestinationPath: elsewhere.url.appending(path: "words").path)
        let error = try #require(
            Self.libraryError { _ = try library.change(.status(.ignored), of: [entry], verb: "ignore") })
        #expect(error.code == .writeRefused)
        let write = try #require(error.cause as? AtomicFile.WriteError, "\(String(describing: error.cause))")
        #expect(write.refused)
        #expect(error.message.contains("symbolic link"), "\(error.message)")
    }

    /// libgit2's failure reading the history (a commit whose object is gone) is `gitFailure`,
    /// with libgit2's `GitError` as the cause.
    @Test func aFailureOfGitUnderneathIsGitFailureWithGitsErrorAsItsCause() async throws {
        let (directory, library) = try await Self.library()
        let entry = try library.entry(named: "words/run")
        let head = try #require(try Repository.open(at: directory.url).headCommit()).id.hex
        let object = directory.url.appending(path: ".git/objects/\(head.prefix(2))/\(head.dropFirst(2))")
        try FileManager.default.removeItem(at: object)
        let error = try #require(Self.libraryError { _ = try library.commits(touching: entry) })
        #expect(error.code == .gitFailure)
        #expect(error.cause is GitError, "\(String(describing: error.cause))")
    }

    /// The codes a caller branches on match in a `catch` by themselves, and a `RoteError`
    /// passes through `surfaced` as it is.
    @Test func aRoteErrorIsSurfacedAsItIs() {
        let notFound = LibraryError(.notFound, "no entry 'x'")
        #expect(LibraryError.Code.notFound ~= LibraryError.surfaced(notFound))
        do {
            try Timestamp.checkNotInFuture(Date(timeIntervalSinceNow: 3 * 86_400), what: "the review")
            Issue.record("three days ahead is too far")
        } catch {
            #expect(LibraryError.surfaced(error) is Timestamp.FutureTime)
            #expect(Timestamp.FutureTime.Code.futureTime ~= LibraryError.surfaced(error))
        }
    }
}
