import ArgumentParser
import Foundation
import RoteLibrary
import RoteModel

/// `rote suspend`, `rote ignore`, `rote activate` and `rote reset`: one commit changing where
/// the entries stand for the learner (`Library.change`).
extension EntryStatusChange {
    func run(_ global: GlobalOptions, ids: [String], verb: String) throws {
        let library = try CommandContext.library(global)
        let changed = try CLIError.explain {
            try library.requireProfile()
            return try library.change(self, of: try ids.map { try library.entry(named: $0) }, verb: verb)
        }
        for (entry, file) in changed {
            switch self {
            case let .status(status): print("\(entry.id): \(status.rawValue)")
            case .reset: print("\(entry.id): new again (\(file.reviews.count) earlier review\(file.reviews.count == 1 ? "" : "s") kept as history)")
            }
        }
    }
}

struct Suspend: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Take entries out of study for now, keeping their schedule (`rote activate` brings them back).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("Entry ids or words.", valueName: "entry")) var entries: [String]
    func run() throws { try EntryStatusChange.status(.suspended).run(global, ids: entries, verb: "suspend") }
}

struct Ignore: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Never study these entries (seed 002's triage: a word you know or do not want).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("Entry ids or words.", valueName: "entry")) var entries: [String]
    func run() throws { try EntryStatusChange.status(.ignored).run(global, ids: entries, verb: "ignore") }
}

struct Activate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Bring suspended or ignored entries back into study, where their schedule left them.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("Entry ids or words.", valueName: "entry")) var entries: [String]
    func run() throws { try EntryStatusChange.status(.active).run(global, ids: entries, verb: "activate") }
}

struct Reset: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make entries new again; their reviews stay in the file as history but no longer schedule them.",
        discussion: "Sets reset_at in the progress file (a merge keeps the later one) and the status to active; a passage starts its acquisition ladder again.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("Entry ids or words.", valueName: "entry")) var entries: [String]
    func run() throws { try EntryStatusChange.reset.run(global, ids: entries, verb: "reset") }
}
