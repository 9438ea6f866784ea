import ArgumentParser
import Foundation
import RoteLibrary
import RoteModel

/// `rote article`: seed 002's generated reading texts.
struct Article: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A short reading text aimed at your rank, made from your decks' example sentences.",
        discussion: """
            `rote article` composes one and keeps it on this device only \
            (.git/rote/generated/, never committed); `rote article save ID` commits it to \
            profiles/<you>/saved/ so it syncs; `rote article list` shows the unsaved ones.
            """,
        subcommands: [New.self, Save.self, ListArticles.self],
        defaultSubcommand: New.self
    )

    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "new", abstract: "Compose a reading text for your rank and show it.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let library = try CommandContext.library(global)
            guard let article = try CLIError.explain({ try library.composeArticle() }) else {
                throw CLIError("no word you don't know yet has an example sentence to read; add words (rote import) or study on")
            }
            print(article.title)
            print("")
            print(article.body)
            print("")
            print(article.madeBy)
            print("Kept on this device only as \(article.id); `rote article save \(article.id)` keeps it for good.")
        }
    }

    struct Save: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Commit an article to your saved texts (profiles/<you>/saved/<id>.yaml).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("The article's id, as `rote article` printed it.", valueName: "id")) var id: String

        func run() throws {
            let library = try CommandContext.library(global)
            let saved = try CLIError.explain { try library.saveArticle(id: id) }
            print("Saved \"\(saved.article.title)\" as \(saved.path).")
        }
    }

    struct ListArticles: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The articles composed on this device and not saved, newest first.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let library = try CommandContext.library(global)
            for article in library.generatedArticles() { print("\(article.id)  \(Timestamp.format(article.createdAt))  \(article.title)") }
        }
    }
}
