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
Rote.main(arguments)
