import ArgumentParser
import Foundation
import LibGit
import RoteStore
import RoteSync

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a library: a git repository with the starter decks and your profile.",
        discussion: """
            PATH must not exist yet or be an empty folder. The library's first commit is made with \
            your git identity (user.name, user.email) when set. With --anonymous the learner gets \
            a random id instead of your login name, rote.yaml says `privacy: anonymous`, and every \
            commit Rote makes is authored `Rote <learner-id@users.rote.invalid>` (docs/privacy.md).
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "A random learner id, and commits that name no one (privacy: anonymous).")
    var anonymous = false

    @Argument(help: ArgumentHelp("Where to create the library (default: the current folder).", valueName: "path"))
    var path: String?

    func run() throws {
        let base = URL(fileURLWithPath: global.effectiveDirectory ?? FileManager.default.currentDirectoryPath, isDirectory: true)
        let root = URL(fileURLWithPath: path ?? ".", relativeTo: base).standardizedFileURL
        // Anonymous: only a name the learner typed on this command line, never one from the
        // environment or the login.
        let user =
            anonymous
            ? global.effectiveUser ?? LibraryCreator.anonymousLearnerID()
            : global.effectiveUser ?? ProcessInfo.processInfo.environment["ROTE_USER"].flatMap { $0.isEmpty ? nil : $0 } ?? LibraryLocation.loginUser()
        do {
            let commit = try LibraryCreator(user: user, privacy: anonymous ? .anonymous : .standard).create(at: root)
            try MergeDrivers.configure(try Repository.open(at: root), rotePath: SetupGit.rotePath)
            print("Created a Rote library in \(root.path)")
            print("  decks: \(LibraryCreator.starterDeckNames.joined(separator: ", "))")
            print("  learner: \(user)" + (anonymous ? " (anonymous: commits are authored by Rote <\(CommitAuthor.anonymousEmail(user: user))>)" : ""))
            print("  first commit: \(commit.hex.prefix(10))")
            print("Next: rote -C \(path ?? ".") check, then rote -C \(path ?? ".") list")
        } catch let error as LibraryError {
            throw CLIError(error.message)
        } catch let error as GitError {
            throw CLIError(error.description)
        }
    }
}
