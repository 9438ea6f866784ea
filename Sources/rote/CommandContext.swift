import AnkiImport
import ArgumentParser
import Exchange
import Foundation
import LibGit
import PublisherDecks
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
    static func openReadingEveryFile(_ options: GlobalOptions, loader: LibraryLoader? = nil, sessions: Bool = false) throws -> CommandContext {
        let root = try locate(options)
        do {
            let library = try (loader ?? LibraryLoader(users: .all, includeSessions: sessions)).load(root)
            let user = try LibraryLocation.user(explicit: options.effectiveUser, manifest: library.manifest)
            return CommandContext(root: root, user: user, library: library, index: LibraryIndex(library: library, user: user))
        } catch let error as LibraryError {
            throw CLIError(error.message)
        }
    }

    /// The library through its checked launch index (`Library`), for commands that read or
    /// change a few files; a first launch says so when indexing takes more than a second.
    static func library(_ options: GlobalOptions) throws -> Library {
        let root = try locate(options)
        let user = try user(at: root, options)
        return try CLIError.explain { try Library(root: root, user: user, announce: Terminal.note) }
    }

    static func locate(_ options: GlobalOptions) throws -> URL {
        do {
            let (root, isDefault) = try LibraryLocation.resolve(explicit: options.effectiveDirectory)
            if isDefault, !LibraryLocation.isLibrary(root) {
                let user = options.effectiveUser ?? LibraryLocation.loginUser()
                try LibraryCreator(user: user).create(at: root)
                try MergeDrivers.configure(try Repository.open(at: root), rotePath: SetupGit.rotePath)
                Terminal.note("Created your library at \(root.path) with the starter decks (\(LibraryCreator.starterDeckNames.joined(separator: ", "))).")
            }
            return root
        } catch let error as LibraryError {
            throw CLIError(error.message)
        } catch let error as GitError {
            throw CLIError(error.description)
        }
    }

    /// The learner commands act for, without loading the library: `--user`, `ROTE_USER`,
    /// rote.yaml's `default_user`, the login name.
    static func user(at root: URL, _ options: GlobalOptions) throws -> String {
        let manifest = LibraryManifest.decode(FileManager.default.contents(atPath: root.appending(path: LibraryLocation.manifestName).path) ?? Data(), path: LibraryLocation.manifestName).0
        do {
            return try LibraryLocation.user(explicit: options.effectiveUser, manifest: manifest)
        } catch let error as LibraryError {
            throw CLIError(error.message)
        }
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

/// A failure the user can act on: printed as `rote: error: message`, exit status 1.
struct CLIError: Error, CustomStringConvertible {
    let message: String
    // Whatever error it wraps, a password in a quoted URL stays hidden.
    init(_ message: String) { self.message = RemoteURL.redactingUserinfo(message) }
    var description: String { message }
}

extension CLIError: LocalizedError {
    var errorDescription: String? { message }
}

extension CLIError {
    /// Runs `body`, its errors explained as `explaining` explains them.
    static func explain<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            throw explaining(error)
        }
    }

    /// The one line a person reads for an error the libraries throw (which already says what
    /// went wrong, where and what to do); any other error is passed on unchanged.
    static func explaining(_ error: any Error) -> any Error {
        switch error {
        case let busy as LibraryLock.Busy: CLIError(busy.description)
        case let error as LibraryError: CLIError(error.message)
        case let error as SyncError: CLIError(error.message)
        case let error as GitError: CLIError(error.description)
        case let error as PublisherError: CLIError(error.message)
        case let error as AnkiImportError: CLIError(error.message)
        case let failure as Erasure.Failure: CLIError(failure.message)
        case let future as Timestamp.FutureTime: CLIError(future.description)
        case let refused as AtomicFile.WriteError: CLIError(refused.description)
        default: error
        }
    }
}
