import ArgumentParser
import Foundation
import Git

/// Runs the command parsed, awaiting it when it is async (`forget`, `consent`). A function of
/// its own because top-level code picks the synchronous `run()` of an async command, which
/// only prints its help.
func execute(_ parsed: any ParsableCommand) async throws {
    var command = parsed
    if var asynchronous = command as? any AsyncParsableCommand {
        try await asynchronous.run()
    } else {
        try command.run()
    }
}

// ArgumentParser's own `main` would print errors itself; they carry text from files, remotes
// and packages, so they go out through `Terminal` like everything else, with any password
// in a quoted remote URL hidden. An error prints as `Error: <its description>`.
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
