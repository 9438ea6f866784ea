import ArgumentParser
import Foundation
import RoteVersion

/// `rote`: a spaced-repetition learning store whose database is a git repository of YAML.
/// Async, as ArgumentParser asks of the root when a subcommand is (forget and consent wait for
/// `git gc`); main.swift runs either kind. The other subcommands stay synchronous.
struct RoteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rote",
        abstract: "Spaced-repetition learning whose database is a git repository of plain text.",
        discussion: """
            The library is the folder given by -C or ROTE_LIBRARY, else the current folder (or a \
            parent) holding rote.yaml, else your default library in $XDG_DATA_HOME/rote \
            (~/.local/share/rote), created from the starter decks on first use.

            Options -C PATH and --user NAME may come before the command, as with git \
            (`rote -C ~/lib check`), or after it (`rote check -C ~/lib`).
            """,
        version: BuildVersion.current,
        subcommands: [
            InitCommand.self, CheckCommand.self, ListCommand.self, ShowCommand.self, LookupCommand.self,
            StudyCommand.self, ReviewCommand.self, LettersCommand.self, SuspendCommand.self, IgnoreCommand.self,
            ActivateCommand.self, ResetCommand.self, UndoCommand.self, StatsCommand.self, SyncCommand.self,
            CloneCommand.self,
            LogCommand.self, HistoryCommand.self, ReplayCommand.self, OptimizeCommand.self, EvaluateCommand.self,
            SimulateCommand.self,
            SetupGitCommand.self, MergeDriverCommand.self,
            ImportCommand.self, ExportCommand.self, ForgetCommand.self, ConsentCommand.self, DeviceCommand.self,
            DeckCommand.self, ServeCommand.self,
            // Seed 002's adaptive loop (#18).
            CalibrateCommand.self, AddCommand.self, KnownCommand.self, ReadCommand.self, TodayCommand.self,
            InterestsCommand.self, ArticleCommand.self,
        ]
    )

    /// Given anywhere on the command line; every subcommand reads them here through its
    /// `@ParentCommand var rote`.
    @OptionGroup var global: GlobalOptions
}

/// Options every command shares.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .customShort("C", allowingJoined: true),
        help: ArgumentHelp("Run as if rote was started in PATH.", valueName: "path"))
    var directory: String?

    @Option(
        help: ArgumentHelp(
            "The learner to act for (default: ROTE_USER, rote.yaml's default_user, your login).", valueName: "name"))
    var user: String?
}
