import Foundation
import RoteLibrary
import RoteModel
import RoteStore
import TestSupport
import Testing

/// `Library.undo(session:)`, what the web summary's "Undo this session" calls: it takes back
/// that session only while it is the learner's last write.
@Suite(.settledFileStamps) struct UndoTests {
    static func sessionIDs(_ directory: TemporaryDirectory) throws -> Set<String> {
        let folder = directory.url.appending(path: "profiles/demo/sessions")
        let files = (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? []
        return Set(
            files.filter { $0.hasSuffix(".yaml") }.map {
                URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent
            })
    }

    @Test func undoingASessionByItsIDRefusesWhileAnotherWriteCameAfterIt() async throws {
        let directory = await StarterLibrary.copy()
        let library = try Library(root: directory.url, user: "demo")
        let entry = try library.entry(named: "english-a1/run")
        let before = library.progress(of: entry.id)
        let earlier = try Self.sessionIDs(directory)
        _ = try library.recordReview(of: entry, grade: .again, ms: 1_000, reviewID: nil)
        let session = try #require(try Self.sessionIDs(directory).subtracting(earlier).first)
        _ = try library.change(.status(.suspended), of: [entry], verb: "suspend")

        do {
            _ = try library.undo(session: session)
            Issue.record("the session was undone though a suspend came after it")
        } catch let error as LibraryError {
            #expect(error.code == .dependedOn)
            #expect(error.message.contains("Suspend: english-a1/run"), "\(error.message)")
        }
        #expect(library.progress(of: entry.id)?.status == .suspended, "nothing written")

        let suspend = try library.undo()
        #expect(!suspend.isSession && suspend.subject == "Suspend: english-a1/run")
        let undone = try library.undo(session: session)
        #expect(undone.isSession && undone.reviewsUndone == 1 && undone.entries == [entry.id])
        let after = try #require(library.progress(of: entry.id))
        #expect(after.status == .active)
        #expect(after.state == before?.state, "scheduled as before the session")
        #expect(after.reviews.filter { $0.undone != nil }.map(\.grade) == [.again])
        #expect(try Self.sessionIDs(directory) == earlier, "the session file is gone from the work tree")
        // Undone already: asking again is refused, and nothing is written.
        #expect(throws: LibraryError.self) { try library.undo(session: session) }
    }
}
