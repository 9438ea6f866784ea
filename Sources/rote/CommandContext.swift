import AnkiImport
import ArgumentParser
import Exchange
import Foundation
import Publishing
import RoteLibrary
import RoteModel
import RoteStore
import RoteSync

/// What a command needs: the library's location, the learner, the loaded files and index.
struct CommandContext {
    let root: URL
    let user: String
    let library: LoadedLibrary
    let index: LibraryIndex

    /// Finds the library and parses every file of it (the full load), creating the default
    /// library on first use: for the few commands whose rules look at every file (`check
    /// --all`, a seed or table import, whose ids must be unique across the library). Every
    /// other command opens a `Library`, which reads only what it needs.
    static func openReadingEveryFile(_ options: GlobalOptions, loader: LibraryLoader? = nil, sessions: Bool = false)
        throws -> CommandContext
    {
        let root = try locate(options)
        let library = try (loader ?? LibraryLoader(users: .all, includeSessions: sessions)).load(root)
        let user = try LibraryLocation.user(explicit: options.user, manifest: LibraryLocation.readManifest(root: root))
        return CommandContext(
            root: root, user: user, library: library, index: LibraryIndex(library: library, user: user))
    }

    /// The library through its checked launch index (`Library`), for commands that read or
    /// change a few files; a first launch says so when indexing takes more than a second.
    static func library(_ options: GlobalOptions) throws -> Library {
        let root = try locate(options)
        let user = try user(at: root, options)
        return try Library(root: root, user: user, announce: Terminal.note)
    }

    static func locate(_ options: GlobalOptions) throws -> URL {
        let (root, isDefault) = try LibraryLocation.resolve(explicit: options.directory)
        if isDefault, !LibraryLocation.isLibrary(root) {
            let user = options.user ?? LibraryLocation.loginUser()
            try Library.create(at: root, with: LibraryCreator(user: user), mergeDriver: SetupGitCommand.rotePath)
            Terminal.note(
                "Created your library at \(root.path) with the starter decks (\(LibraryCreator.starterDeckNames.joined(separator: ", ")))."
            )
        }
        return root
    }

    /// The learner commands act for, without loading the library: `--user`, `ROTE_USER`,
    /// rote.yaml's `default_user`, the login name.
    static func user(at root: URL, _ options: GlobalOptions) throws -> String {
        try LibraryLocation.user(explicit: options.user, manifest: LibraryLocation.readManifest(root: root))
    }

    /// Errors in files are reported as warnings-to-stderr by commands that are not `check`,
    /// so a broken file never hides the rest.
    func reportLoadProblems() { CommandContext.report(library.errors) }

    /// Problems with files, to stderr: the first five and how many more.
    static func report(_ errors: [Diagnostic]) {
        guard !errors.isEmpty else { return }
        for problem in errors.prefix(5) { Terminal.error(problem.description) }
        if errors.count > 5 { Terminal.error("… and \(errors.count - 5) more; run `rote check` for all") }
    }
}

/// A failure found by the CLI itself (a flag that makes no sense, a file it cannot read).
/// The libraries' own errors are thrown as they are: their description already says what went
/// wrong, where and what to do. `main` prints every error as `Error: <description>` on stderr
/// (argument-parser's form) and exits with status 1.
struct CLIError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
