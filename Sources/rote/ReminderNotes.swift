import Foundation
import Publishing
import RoteLibrary

/// The reminders `rote study` and `rote stats` give, each at most once a day on this device
/// (`Reminders`): a sync older than a week, and publisher decks with a newer version this
/// device already knows of. Nothing is fetched for them.
enum ReminderNotes {
    static func show(for library: Library, now: Date = Date()) {
        let reminders = Reminders(root: library.root)
        var candidates: [(kind: String, text: String)] = []
        if let sync = reminders.syncReminder(now: now) { candidates.append(("sync", sync)) }
        for update in PublisherDecks(root: library.root, user: library.user).knownUpdates() {
            candidates.append(
                (
                    "deck-update \(update.deck)",
                    "\(update.deck): version \(update.version) is available from its publisher; `rote deck update \(update.deck)` takes it (nothing is fetched until you do)."
                ))
        }
        for line in reminders.dueToday(candidates, now: now) { Terminal.note(line) }
    }
}
