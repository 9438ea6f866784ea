import Foundation
import RoteStore
import Testing

/// The journal of a commit made behind its write: whole or unreadable, never half.
@Suite struct PendingCommitTests {
    @Test func aJournalReadsBackAsWrittenAndATornOneDoesNot() {
        var changes: [String: Data?] = [
            "profiles/demo/progress/a b.yaml": Data("status: ignored\n\nend\nfile 3 x\n".utf8), "empty": Data(),
        ]
        changes["gone.yaml"] = .some(nil)
        let commit = PendingCommit(
            changes: changes,
            message: "Ignore: a\n\nRote-Device: d\nRote-User: demo\n", user: "demo",
            date: Date(timeIntervalSince1970: 1_800_000_000.5))
        let data = commit.encoded()
        #expect(PendingCommit.decode(data) == commit)
        for cut in [1, 7, data.count / 2, data.count - 1] {
            #expect(PendingCommit.decode(data.prefix(data.count - cut)) == nil, "cut \(cut)")
        }
        #expect(PendingCommit.decode(data + Data("x".utf8)) == nil)
    }
}
