import RoteStore
import Testing

@testable import Launch

/// A stamp taken within the racy window of a file's last change is not trusted: the file is
/// read again at the next check. Tests elsewhere set the window to 0 (`.settledFileStamps`);
/// these hold the production value and the rule itself.
@Suite struct RacyStampTests {
    @Test func productionTrustsNoStampYoungerThanTwoSeconds() {
        #expect(FileStamp.racyWindow == 2_000_000_000)
        let now = FileCheck.now()
        let second = FileStamp(size: 1, modified: now - 1_000_000_000, changed: now - 1_000_000_000, inode: 1)
        let older = FileStamp(size: 1, modified: now - 3_000_000_000, changed: now - 3_000_000_000, inode: 1)
        #expect(FileCheck.settled(second, since: FileCheck.racyFrom()) == .unknown, "changed a second ago: racy")
        #expect(FileCheck.settled(older, since: FileCheck.racyFrom()) == older, "changed three seconds ago: settled")
        let recentChange = FileStamp(size: 1, modified: now - 3_000_000_000, changed: now - 1_000_000_000, inode: 1)
        #expect(
            FileCheck.settled(recentChange, since: FileCheck.racyFrom()) == .unknown,
            "a recent status change counts too")
    }

    @Test func theWindowIsTheTasks() {
        let now = FileCheck.now()
        let second = FileStamp(size: 1, modified: now - 1_000_000_000, changed: now - 1_000_000_000, inode: 1)
        FileStamp.$racyWindow.withValue(0) {
            #expect(FileCheck.settled(second, since: FileCheck.racyFrom()) == second)
        }
        FileStamp.$racyWindow.withValue(500_000_000) {
            #expect(FileCheck.settled(second, since: FileCheck.racyFrom()) == second)
        }
        FileStamp.$racyWindow.withValue(5_000_000_000) {
            #expect(FileCheck.settled(second, since: FileCheck.racyFrom()) == .unknown)
        }
    }
}
