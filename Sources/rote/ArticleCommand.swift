import ArgumentParser
import Foundation
import RoteLibrary
import RoteModel

/// `rote article`: seed 002's generated reading texts.
struct ArticleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "article",
        abstract: "A short reading text aimed at your rank, made from your decks' example sentences.",
        discussion: """
            `rote article` composes one and keeps it on this device only \
            (.git/rote/generated/, never committed); `rote article save ID` commits it to \
            profiles/<you>/saved/ so it syncs; `rote article list` shows the unsaved ones.
            """,
        subcommands: [NewCommand.self, SaveCommand.self, ListArticlesCommand.self],
        defaultSubcommand: NewCommand.self
    )

    struct NewCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "new", abstract: "Compose a reading text for your rank and show it.")
        @ParentCommand var rote: RoteCommand

        func run() throws {
            let library = try CommandContext.library(rote.global)
            guard let article = try library.composeArticle() else {
                throw CLIError(
                    "no word you don't know yet has an example sentence to read; add words (rote import) or study on")
            }
            print(article.title)
            print("")
            print(article.body)
            print("")
            print(article.madeBy)
            print("Kept on this device only as \(article.id); `rote article save \(article.id)` keeps it for good.")
        }
    }

    struct SaveCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "save", abstract: "Commit an article to your saved texts (profiles/<you>/saved/<id>.yaml).")
        @ParentCommand var rote: RoteCommand
        @Argument(help: ArgumentHelp("The article's id, as `rote article` printed it.", valueName: "id")) var id: String

        func run() throws {
            let library = try CommandContext.library(rote.global)
            let saved = try library.saveArticle(id: id)
            print("Saved \"\(saved.article.title)\" as \(saved.path).")
        }
    }

    struct ListArticlesCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "The articles composed on this device and not saved, newest first.")
        @ParentCommand var rote: RoteCommand

        func run() throws {
            let library = try CommandContext.library(rote.global)
            for article in library.generatedArticles() {
                print("\(article.id)  \(Timestamp.format(article.createdAt))  \(article.title)")
            }
        }
    }
}
