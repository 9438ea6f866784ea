import Foundation

/// Where the library code's notices go: what a person should hear that is not an error (a
/// stale git lock removed, an interrupted change undone, a sync finished after a kill, a
/// served write not yet committed). Rote's library code never prints: `rote` routes the notices
/// to the terminal, an app embedding RoteKit to its own log, and by default they go nowhere.
/// Process-wide, because recoveries run inside whichever writer takes the lock next, far from
/// any call that could take a closure.
package enum LibraryNotices {
    nonisolated(unsafe) private static var sink: @Sendable (String) -> Void = { _ in }
    private static let lock = NSLock()

    /// Sends every notice from now on to `handler` (one line each, without a trailing newline).
    package static func route(to handler: @escaping @Sendable (String) -> Void) {
        lock.withLock { sink = handler }
    }

    /// Tells whoever listens.
    package static func send(_ notice: String) {
        let handler = lock.withLock { sink }
        handler(notice)
    }
}
