import ArgumentParser
import Foundation
import LibGit
import RoteStore
import RoteSync

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a library: a git repository with the starter decks and your profile.",
        discussion: "PATH must not exist yet or be an empty folder. The library's first commit is made with your git identity (user.name, user.email) when set."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Where to create the library (default: the current folder).", valueName: "path"))
    var path: String?

    func run() throws {
        let base = URL(fileURLWithPath: global.effectiveDirectory ?? FileManager.default.currentDirectoryPath, isDirectory: true)
        let root = URL(fileURLWithPath: path ?? ".", relativeTo: base).standardizedFileURL
        let user = global.effectiveUser ?? ProcessInfo.processInfo.environment["ROTE_USER"].flatMap { $0.isEmpty ? nil : $0 } ?? LibraryLocation.loginUser()
        do {
            let commit = try LibraryCreator(user: user).create(at: root)
            try MergeDrivers.configure(try Repository.open(at: root), rotePath: SetupGit.rotePath)
            print("Created a Rote library in \(root.path)")
            print("  decks: \(LibraryCreator.starterDeckNames.joined(separator: ", "))")
            print("  learner: \(user)")
            print("  first commit: \(commit.hex.prefix(10))")
            print("Next: rote -C \(path ?? ".") check, then rote -C \(path ?? ".") list")
        } catch let error as LibraryError {
            throw CLIError(error.message)
        } catch let error as GitError {
            throw CLIError(error.description)
        }
    }
}
