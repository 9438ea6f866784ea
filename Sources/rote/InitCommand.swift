import ArgumentParser
import Foundation
import Git
import RoteLibrary
import RoteModel
import RoteStore
import RoteSync

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a library: a git repository with the starter decks and your profile.",
        discussion: """
            PATH must not exist yet or be an empty folder. The library's first commit is made with \
            your git identity (user.name, user.email) when set. With --anonymous the learner gets \
            a random id instead of your login name, rote.yaml says `privacy: anonymous`, and every \
            commit Rote makes is authored `Rote <learner-id@users.rote.invalid>` (docs/privacy.md).

            Your native language and the language you learn (--native-language ar \
            --target-language en; asked at a terminal when not given) go into your profile and \
            decide which side of a vocabulary card is the prompt: a learner whose native \
            language is a deck's word side learns its translations.
            """
    )

    @ParentCommand var rote: RoteCommand

    @Flag(help: "A random learner id, and commits that name no one (privacy: anonymous).")
    var anonymous = false

    @Option(help: ArgumentHelp("Your own language, a code such as ar (asked at a terminal).", valueName: "code"))
    var nativeLanguage: String?

    @Option(help: ArgumentHelp("The language you learn, a code such as en (asked at a terminal).", valueName: "code"))
    var targetLanguage: String?

    func validate() throws {
        for (flag, code) in [("--native-language", nativeLanguage), ("--target-language", targetLanguage)] {
            if let code, !LibraryCreator.isLanguageCode(code) {
                throw ValidationError("\(flag) '\(code)' is not a language code; use one such as ar, en or pt-BR")
            }
        }
    }

    /// Asks for a language code at a terminal until one reads (Enter leaves it unset).
    private func ask(_ question: String) -> String? {
        while true {
            print(question, terminator: " ")
            guard let line = readLine()?.trimmingCharacters(in: .whitespaces), !line.isEmpty else { return nil }
            if LibraryCreator.isLanguageCode(line) { return line }
            print("'\(line)' is not a language code; use one such as ar, en or pt-BR (Enter to skip).")
        }
    }

    @Argument(help: ArgumentHelp("Where to create the library (default: the current folder).", valueName: "path"))
    var path: String?

    func run() throws {
        let base = URL(
            fileURLWithPath: rote.global.directory ?? FileManager.default.currentDirectoryPath, isDirectory: true)
        let root = URL(fileURLWithPath: path ?? ".", relativeTo: base).standardizedFileURL
        // Anonymous: only a name the learner typed on this command line, never one from the
        // environment or the login.
        let user =
            anonymous
            ? rote.global.user ?? LibraryCreator.anonymousLearnerID()
            : rote.global.user ?? ProcessInfo.processInfo.environment["ROTE_USER"].flatMap { $0.isEmpty ? nil : $0 }
                ?? LibraryLocation.loginUser()
        var creator = LibraryCreator(user: user, privacy: anonymous ? .anonymous : .standard)
        let interactive = TerminalConsole.isAvailable
        creator.nativeLanguage =
            nativeLanguage ?? (interactive ? ask("Your native language (a code such as ar; Enter to skip):") : nil)
        creator.targetLanguage =
            targetLanguage ?? (interactive ? ask("The language you are learning (such as en; Enter to skip):") : nil)
        let commit = try Library.create(at: root, with: creator, mergeDriver: SetupGitCommand.rotePath)
        print("Created a Rote library in \(root.path)")
        print("  decks: \(LibraryCreator.starterDeckNames.joined(separator: ", "))")
        print(
            "  learner: \(user)"
                + (anonymous
                    ? " (anonymous: commits are authored by Rote <\(CommitAuthor.anonymousEmail(user: user))>)" : ""))
        if creator.nativeLanguage != nil || creator.targetLanguage != nil {
            print(
                "  languages: native \(creator.nativeLanguage ?? "not set"), learning \(creator.targetLanguage ?? "not set")"
            )
        }
        print("  first commit: \(commit.hex.prefix(10))")
        // The folder as the user named it, from where they are: `-C` and the path together.
        let named: String =
            switch (rote.global.directory, path) {
            case (nil, nil): "."
            case (let directory?, nil): directory
            case (let directory?, let path?) where !path.hasPrefix("/"): "\(directory)/\(path)"
            case (_, let path?): path
            }
        print("Next: rote -C \(named) check, then rote -C \(named) list")
    }
}
