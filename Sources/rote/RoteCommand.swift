import ArgumentParser
import Foundation

/// `rote`: a spaced-repetition learning store whose database is a git repository of YAML.
struct Rote: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rote",
        abstract: "Spaced-repetition learning whose database is a git repository of plain text.",
        discussion: """
            The library is the folder given by -C or ROTE_LIBRARY, else the current folder (or a \
            parent) holding rote.yaml, else your default library in $XDG_DATA_HOME/rote \
            (~/.local/share/rote), created from the starter decks on first use.

            Options -C PATH and --user NAME may come before the command, as with git: \
            `rote -C ~/lib check`.
            """,
        version: "0.1.0",
        subcommands: [
            Init.self, Check.self, List.self, Show.self, Lookup.self, StudyCommand.self, Review.self, Letters.self, Suspend.self, Ignore.self, Activate.self, Reset.self, Stats.self, Sync.self, Clone.self, Log.self, History.self, Replay.self, Optimize.self, Evaluate.self, SetupGit.self, MergeDriverCommand.self,
            Import.self, Export.self, Forget.self, Consent.self, DeviceCommand.self, DeckCommand.self, Serve.self,
            // Seed 002's adaptive loop (#18).
            Calibrate.self, Add.self, Known.self, Read.self, Today.self, Article.self,
        ]
    )
}

/// Options every command shares.
struct GlobalOptions: ParsableArguments {
    @Option(name: .customShort("C"), help: ArgumentHelp("Run as if rote was started in PATH.", valueName: "path"))
    var directory: String?

    @Option(help: ArgumentHelp("The learner to act for (default: ROTE_USER, rote.yaml's default_user, your login).", valueName: "name"))
    var user: String?

    /// Options given before the command name, which `main` lifts out of the arguments.
    nonisolated(unsafe) static var leading = (directory: String?.none, user: String?.none)

    var effectiveDirectory: String? { directory ?? GlobalOptions.leading.directory }
    var effectiveUser: String? { user ?? GlobalOptions.leading.user }
}
