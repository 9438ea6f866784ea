import ArgumentParser
import Foundation

// git-style global options: `rote -C PATH --user NAME <command> ...`. ArgumentParser parses
// options after the command name, so the ones before it are lifted out here.
var arguments = Array(CommandLine.arguments.dropFirst())
while let first = arguments.first, first.hasPrefix("-") {
    if first == "-C" || first == "--user", arguments.count >= 2 {
        if first == "-C" { GlobalOptions.leading.directory = arguments[1] } else { GlobalOptions.leading.user = arguments[1] }
        arguments.removeFirst(2)
    } else if first.hasPrefix("-C"), first.count > 2 {
        GlobalOptions.leading.directory = String(first.dropFirst(2))
        arguments.removeFirst()
    } else if first.hasPrefix("--user=") {
        GlobalOptions.leading.user = String(first.dropFirst("--user=".count))
        arguments.removeFirst()
    } else {
        break
    }
}
// ArgumentParser's own `main` would print errors itself; they carry text from files, remotes
// and packages, so they go out through `Terminal` like everything else.
do {
    var command = try Rote.parseAsRoot(arguments)
    try command.run()
} catch {
    let message = Rote.fullMessage(for: error)
    let code = Rote.exitCode(for: error)
    if !message.isEmpty {
        if code == .success { print(message) } else { Terminal.error(message) }
    }
    Rote.exit(withError: code)
}
