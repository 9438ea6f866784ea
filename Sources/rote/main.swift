import ArgumentParser
import Foundation
import Git

// ArgumentParser's own `main` would print errors itself; they carry text from files, remotes
// and packages, so they go out through `Terminal` like everything else, with any password
// in a quoted remote URL hidden. An error prints as `Error: <its description>`.
do {
    var command = try RoteCommand.parseAsRoot()
    try command.run()
} catch {
    let message = RoteCommand.fullMessage(for: error)
    let code = RoteCommand.exitCode(for: error)
    if !message.isEmpty {
        if code == .success { print(message) } else { Terminal.error(RemoteURL.redactingUserinfo(message)) }
    }
    RoteCommand.exit(withError: code)
}
