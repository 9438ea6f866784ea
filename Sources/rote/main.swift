import ArgumentParser
import Foundation
import Git
import RoteStore

/// Runs the command parsed, awaiting it when it is async (`forget`, `consent`). A function of
/// its own because top-level code picks the synchronous `run()` of an async command, which
/// only prints its help. On the main actor, so a synchronous command runs on the main thread
/// as it did before any command was async: a nonisolated async function would run it on a
/// thread of the cooperative pool, which `rote serve` would then hold blocked for its whole
/// life while its server needs that pool.
@MainActor
func execute(_ parsed: sending any ParsableCommand) async throws {
    if let asynchronous = parsed as? any AsyncParsableCommand {
        try await runAsynchronously(asynchronous)
    } else {
        var command = parsed
        try command.run()
    }
}

/// Off the main actor, as an async command's `run()` expects.
nonisolated func runAsynchronously(_ parsed: sending any AsyncParsableCommand) async throws {
    var command = parsed
    try await command.run()
}

// ArgumentParser's own `main` would print errors itself; they carry text from files, remotes
// and packages, so they go out through `Terminal` like everything else, with any password
// in a quoted remote URL hidden. An error prints as `Error: <its description>`.
// What the library code has to say besides its errors (a stale lock removed, an interrupted
// change undone) goes where the CLI's notes go.
LibraryNotices.route { Terminal.note($0) }
do {
    try await execute(try await RoteCommand.asyncParseAsRoot())
} catch {
    let message = RoteCommand.fullMessage(for: error)
    let code = RoteCommand.exitCode(for: error)
    if !message.isEmpty {
        if code == .success { print(message) } else { Terminal.error(RemoteURL.redactingUserinfo(message)) }
    }
    RoteCommand.exit(withError: code)
}
