import ArgumentParser
import Foundation
import RoteLibrary
import RoteModel
import RoteStore

/// `rote suspend`, `rote activate` and `rote reset` (and `rote ignore` for entries): one commit
/// changing where the entries stand for the learner (`Library.change`).
protocol EntryStatusCommand: ParsableCommand {
    static var change: EntryStatusChange { get }
    var rote: RoteCommand { get }
    var entries: [String] { get }
}

extension EntryStatusCommand {
    /// The command's name is the verb of its commit message.
    func run() throws { try Self.change.run(rote.global, ids: entries, verb: Self.configuration.commandName ?? "") }
}

extension EntryStatusChange {
    func run(_ global: GlobalOptions, ids: [String], verb: String) throws {
        let library = try CommandContext.library(global)
        try library.requireProfile()
        let changed = try library.change(self, of: try ids.map { try library.entry(named: $0) }, verb: verb)
        for (entry, file) in changed {
            switch self {
            case let .status(status): print("\(entry.id): \(status.rawValue)")
            case .reset:
                print(
                    "\(entry.id): new again (\(file.reviews.count) earlier review\(file.reviews.count == 1 ? "" : "s") kept as history)"
                )
            }
        }
    }
}

struct SuspendCommand: EntryStatusCommand {
    static let configuration = CommandConfiguration(
        commandName: "suspend",
        abstract: "Take entries out of study for now, keeping their schedule (`rote activate` brings them back).")
    static let change = EntryStatusChange.status(.suspended)
    @ParentCommand var rote: RoteCommand
    @Argument(help: ArgumentHelp("Entry ids or words.", valueName: "entry")) var entries: [String]
}

struct ActivateCommand: EntryStatusCommand {
    static let configuration = CommandConfiguration(
        commandName: "activate",
        abstract: "Bring suspended or ignored entries back into study, where their schedule left them.")
    static let change = EntryStatusChange.status(.active)
    @ParentCommand var rote: RoteCommand
    @Argument(help: ArgumentHelp("Entry ids or words.", valueName: "entry")) var entries: [String]
}

struct ResetCommand: EntryStatusCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Make entries new again; their reviews stay in the file as history but no longer schedule them.",
        discussion:
            "Sets reset_at in the progress file (a merge keeps the later one) and the status to active; a passage starts its acquisition ladder again."
    )
    static let change = EntryStatusChange.reset
    @ParentCommand var rote: RoteCommand
    @Argument(help: ArgumentHelp("Entry ids or words.", valueName: "entry")) var entries: [String]
}

struct IgnoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ignore",
        abstract: "Never study these entries: a word you already know, or one you do not want.",
        discussion:
            "A word in no deck (`rote ignore the`) goes into your profile's ignored_words: any entry with that word, in any deck now or later, counts as ignored."
    )
    @ParentCommand var rote: RoteCommand
    @Argument(help: ArgumentHelp("Entry ids or words.", valueName: "entry")) var entries: [String]
    func run() throws {
        let library = try CommandContext.library(rote.global)
        // A plain word no deck holds is remembered as a word; everything else names entries.
        var words: [String] = []
        var ids: [String] = []
        for name in entries {
            if !name.contains("/"), (try? library.entry(named: name)) == nil {
                words.append(name)
            } else {
                ids.append(name)
            }
        }
        if !ids.isEmpty { try EntryStatusChange.status(.ignored).run(rote.global, ids: ids, verb: "ignore") }
        if !words.isEmpty {
            let added = try library.ignoreWords(words)
            for word in words.map(LibraryIndex.normalize) {
                print(
                    "\(word): ignored (in no deck; kept in your profile's ignored_words)"
                        + (added.contains(word) ? "" : " — already"))
            }
        }
    }
}

struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract:
            "Study these words now: active, with a first review, first in your next session.",
        discussion:
            "Each entry is made active (and its word leaves ignored_words) and gets a first review graded `again` — you met it and do not know it yet — so it is in learning and comes up in your next session before any new word. One commit."
    )
    @ParentCommand var rote: RoteCommand
    @Argument(help: ArgumentHelp("Entry ids or words.", valueName: "entry")) var entries: [String]
    func run() throws {
        let library = try CommandContext.library(rote.global)
        let added = try library.add(try entries.map { try library.entry(named: $0) })
        for (entry, file) in added {
            print("\(entry.id): added; due \(file.state.map { Timestamp.format($0.due) } ?? "now")")
        }
    }
}

struct KnownCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "known",
        abstract: "Mark words you already know: they start with a known state, far from due.",
        discussion:
            "An entry you never studied gets two reviews marked `synthetic: known` (the warm start's rule, docs/scheduling.md), which schedule it weeks ahead; an entry with reviews keeps its history. Real reviews later take over. One commit."
    )
    @ParentCommand var rote: RoteCommand
    @Argument(help: ArgumentHelp("Entry ids or words.", valueName: "entry")) var entries: [String]
    func run() throws {
        let library = try CommandContext.library(rote.global)
        let marked = try library.markKnown(try entries.map { try library.entry(named: $0) })
        for (entry, changed) in marked {
            print("\(entry.id): " + (changed ? "known" : "has reviews already; its history decides"))
        }
    }
}
