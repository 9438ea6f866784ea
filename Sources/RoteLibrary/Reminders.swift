public import Foundation
import Git
import RoteModel
import RoteStore

/// Reminders `rote study` and `rote stats` give, each at most once a day on this device:
/// a library not synced for `syncAge` (seed 000: "after 7 days, show reminder to sync"; never
/// blocking), and a publisher deck with a newer version already known here.
///
/// Nothing is fetched for them: the last sync is when this clone last fetched from its remote
/// (`.git/FETCH_HEAD`, which every `rote sync` and `git fetch` writes), and a publisher's
/// versions are read from the mirror the learner's last `rote deck status`, `add` or `update`
/// fetched. When each reminder was last given is kept in `.git/rote/reminders`, device-local
/// and never committed.
public struct Reminders: Sendable {
    public static let syncAge: TimeInterval = 7 * 86_400
    static let statePath = ".git/rote/reminders"

    let root: URL

    public init(root: URL) { self.root = root }

    /// When this clone last fetched from a remote; nil when it never did.
    public func lastSync() -> Date? {
        let git = root.appending(path: ".git")
        let candidates = ["FETCH_HEAD"].map { git.appending(path: $0).path }
        return candidates.compactMap { path in
            (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        }.max()
    }

    /// Whether the library has a remote to sync with.
    public func hasRemote() -> Bool {
        guard let repository = try? Repository.open(at: root) else { return false }
        return !((try? repository.remoteNames()) ?? []).isEmpty
    }

    /// The sync reminder due now, if any: the library has a remote and was last synced more
    /// than `syncAge` ago (or never).
    public func syncReminder(now: Date) -> String? {
        guard hasRemote() else { return nil }
        guard let last = lastSync() else {
            return "This library has not been synced yet: `rote sync` keeps your other devices up to date."
        }
        let days = Int(now.timeIntervalSince(last) / 86_400)
        guard now.timeIntervalSince(last) > Self.syncAge else { return nil }
        return
            "Last sync \(days) days ago (\(Timestamp.local(last))): `rote sync` when you are online; study goes on offline meanwhile."
    }

    /// The reminders not yet given today (by `timeZone`'s day), marked as given. `candidates`
    /// are (kind, text); a kind is given once a day whatever its text.
    public func dueToday(_ candidates: [(kind: String, text: String)], now: Date, timeZone: TimeZone = .current)
        -> [String]
    {
        let day = Timestamp.localDay(now, in: timeZone)
        let url = root.appending(path: Self.statePath)
        var given: [String: String] = [:]
        if let text = try? String(contentsOf: url, encoding: .utf8) {
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                if parts.count == 2 { given[parts[1]] = parts[0] }
            }
        }
        let due = candidates.filter { given[$0.kind] != day }
        guard !due.isEmpty else { return [] }
        for reminder in due { given[reminder.kind] = day }
        let text = given.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)\n" }.joined()
        // Device-local bookkeeping: losing it only repeats a reminder.
        try? AtomicFile.write(Data(text.utf8), to: url)
        return due.map(\.text)
    }
}
