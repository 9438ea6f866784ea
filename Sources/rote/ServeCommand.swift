import ArgumentParser
import Foundation
import RoteLibrary
import RoteServer

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Study, read, trace letters and see your stats in a browser: a local web app on this library.",
        discussion: """
            Prints the address to open, with a token made for this launch, as its first line: \
            http://127.0.0.1:PORT/#token=… (--open opens it). Only that address works: the page \
            keeps the token in its tab and sends it with every request for your data; it is \
            never put in a cookie, which every other web server on this machine would receive. \
            Requests naming another host or coming from another site are refused (docs/web.md). It listens on 127.0.0.1 unless --host says otherwise, \
            which lets other machines on the network reach it — with the token. Ctrl-C stops it; \
            a study session in progress is saved and committed, as quitting `rote study` saves it.
            """
    )

    @ParentCommand var rote: RoteCommand

    @Option(
        help: ArgumentHelp("The address to listen on (default 127.0.0.1, this machine only).", valueName: "address"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port (default 0: a free one).", valueName: "port"))
    var port = 0

    @Flag(help: "Open the address in a browser.")
    var open = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535, got \(port)") }
    }

    func run() throws {
        let library = try CommandContext.library(rote.global)
        _ = try library.launch()
        if !["127.0.0.1", "localhost", "::1"].contains(host) {
            Terminal.note(
                "warning: listening on \(host): other machines on the network can reach this server; they still need the token."
            )
        }
        let app = WebApp(
            root: library.root, user: library.user,
            policy: AccessPolicy(token: AccessPolicy.newToken(), hosts: AccessPolicy.hosts(listeningOn: host)))
        let openBrowser = open
        let finished = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        Task {
            do {
                try await WebServer.run(app: app, host: host, port: port) { address in
                    // Unbuffered, so a script or a test reading the first line gets it at once.
                    FileHandle.standardOutput.write(Data((address + "\n").utf8))
                    if openBrowser { ServeCommand.openInBrowser(address) }
                }
            } catch {
                failure.error = error
            }
            finished.signal()
        }
        finished.wait()
        if let error = failure.error { throw CLIError("cannot serve on \(host):\(port): \(error)") }
    }

    static func openInBrowser(_ address: String) {
        // Foundation's Process, not swift-subprocess: the browser is started and left running,
        // and swift-subprocess runs a child only for the length of an awaited call.
        let process = Process()
        #if os(macOS)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/open")
        #else
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open"]
        #endif
        process.arguments = (process.arguments ?? []) + [address]
        do {
            try process.run()
        } catch {
            Terminal.note("could not open a browser (\(error)); open the address above yourself.")
        }
    }
}

/// The error a server task ended with, handed back to the waiting command.
final class FailureBox: @unchecked Sendable {
    var error: (any Error)?
}
