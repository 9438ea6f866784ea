import ArgumentParser
import Foundation
import Git
import Publishing
import RoteLibrary
import RoteStore

/// `rote deck add|status|update`: decks from a publisher's git repository.
struct DeckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deck",
        abstract: "Add decks from a publisher's git repository, see which have updates, and take them.",
        discussion: """
            A publisher ships decks as a git repository (one deck at its root, or many in \
            folders). `rote deck add` copies one into corpus/NAME/ and records its source and \
            commit in deck.yaml; `rote deck status` says which have a newer version; `rote deck \
            update NAME` merges the new version into your copy, keeping your own edits. Updates \
            are offered, never forced.
            """,
        subcommands: [AddCommand.self, StatusCommand.self, UpdateCommand.self]
    )

    struct AddCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Import a deck from a publisher's git repository into corpus/NAME/.",
            discussion: "Example: rote deck add https://example.org/decks.git --path english/batch-10 --ref v1.1.0"
        )

        @ParentCommand var rote: RoteCommand

        @Argument(
            help: ArgumentHelp(
                "The publisher's repository: a path, file://, ssh:// or https:// URL.", valueName: "git-url"))
        var url: String

        @Option(help: ArgumentHelp("The deck's folder in the repository (default: its root).", valueName: "subdir"))
        var path: String?

        @Option(
            name: .customLong("as"),
            help: ArgumentHelp("The deck's name here (default: the folder's or repository's name).", valueName: "name"))
        var name: String?

        @Option(help: ArgumentHelp("A tag or branch to follow (default: the default branch).", valueName: "tag"))
        var ref: String?

        func run() throws {
            let decks = try CommandContext.library(rote.global).publisherDecks
            let added = try decks.add(url: url, path: path, name: name, ref: ref)
            print(
                "Added deck \(added.name) \(added.version) (\(added.files) file\(added.files == 1 ? "" : "s")) from \(RemoteURL.redactingUserinfo(url)) at \(added.commit.prefix(10))."
            )
        }
    }

    struct StatusCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "Say which publisher decks have a newer version upstream.")

        @ParentCommand var rote: RoteCommand

        func run() throws {
            let decks = try CommandContext.library(rote.global).publisherDecks
            let states = try decks.status()
            if states.isEmpty {
                print("No publisher decks here; add one with `rote deck add GIT-URL`.")
                return
            }
            for status in states {
                switch status.state {
                case .upToDate:
                    print("\(status.deck) \(status.version): up to date")
                case let .newer(version, ref, commit, changelog):
                    print(
                        "\(status.deck) \(status.version): version \(version) available\(ref.map { " (\($0))" } ?? "") at \(commit.prefix(10)); take it with `rote deck update \(status.deck)`"
                    )
                    for line in changelog { print("    \(line)") }
                case let .changed(commit):
                    print(
                        "\(status.deck) \(status.version): the publisher changed it without a new version (\(commit.prefix(10))); `rote deck update \(status.deck)` takes the changes"
                    )
                case let .unreachable(message):
                    print("\(status.deck) \(status.version): could not check — \(message)")
                }
            }
        }
    }

    struct UpdateCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update",
            abstract: "Merge a publisher deck's newer version into your copy, keeping your edits.",
            discussion: """
                A three-way merge: base is the publisher's version you imported last, yours is \
                the deck as committed here, theirs the publisher's new one. When both changed the \
                same lines the update stops, changes nothing, and lists each conflict as \
                file:line; --prefer mine or --prefer theirs settles them.
                """
        )

        @ParentCommand var rote: RoteCommand

        @Argument(help: ArgumentHelp("The deck to update.", valueName: "name"))
        var name: String

        @Option(help: ArgumentHelp("Move to this tag or branch (default: the newest version).", valueName: "tag"))
        var ref: String?

        @Option(help: ArgumentHelp("Settle lines changed on both sides: mine or theirs.", valueName: "side"))
        var prefer: String?

        func run() throws {
            let preference: PublisherDecks.Preference
            switch prefer {
            case nil: preference = .none
            case "mine", "ours": preference = .mine
            case "theirs", "publisher": preference = .theirs
            default: throw ValidationError("--prefer takes mine or theirs, not '\(prefer!)'")
            }
            let decks = try CommandContext.library(rote.global).publisherDecks
            let updated = try decks.update(deck: name, ref: ref, prefer: preference)
            guard let commit = updated.commit else {
                print("\(name) \(updated.from) is up to date with its publisher.")
                return
            }
            print("Updated \(name) \(updated.from) → \(updated.to) (commit \(commit.prefix(10))):")
            if !updated.taken.isEmpty {
                print("  \(updated.taken.count) file\(updated.taken.count == 1 ? "" : "s") from the publisher")
            }
            if !updated.merged.isEmpty { print("  merged with your edits: \(updated.merged.joined(separator: ", "))") }
            if !updated.keptLocal.isEmpty { print("  your edits kept: \(updated.keptLocal.joined(separator: ", "))") }
            if !updated.settled.isEmpty {
                print("  conflicts settled (\(prefer ?? "")): \(updated.settled.joined(separator: ", "))")
            }
        }
    }
}
