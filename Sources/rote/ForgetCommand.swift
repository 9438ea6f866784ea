import ArgumentParser
import Exchange
import Foundation
import Git
import RoteLibrary
import RoteStore

#if canImport(Glibc)
import Glibc
#endif

struct ForgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Erase a learner: delete their files in an erasure commit that sync honours.",
        discussion: """
            Deletes profiles/USER/ (profile, progress, sessions, saved content) in one commit \
            marked `Rote-Erasure: USER`; a clone that changed those files meanwhile does not bring \
            them back when it syncs. The old commits still hold the files: --purge-history \
            rewrites this clone's history so that none does, and explains first what must happen \
            on the remote (a force push) and on other clones. Asks for confirmation unless --yes.
            """
    )

    @ParentCommand var rote: RoteCommand

    @Argument(help: ArgumentHelp("The learner to erase.", valueName: "user"))
    var learner: String

    @Flag(help: "Also rewrite history so that no commit holds the learner's files.")
    var purgeHistory = false

    @Flag(help: "Do not ask for confirmation.")
    var yes = false

    func run() async throws {
        let erasure = try CommandContext.library(rote.global).prepareErasure(of: learner, purpose: "forget")
        defer { withExtendedLifetime(erasure) {} }
        let files = erasure.files
        if files.isEmpty, !purgeHistory {
            throw CLIError(
                "no learner '\(learner)' in this library (nothing under \(LibraryPaths(user: learner).folder)/)")
        }
        var question =
            files.isEmpty
            ? ""
            : "This deletes \(files.count) file\(files.count == 1 ? "" : "s") of \(learner) (\(LibraryPaths(user: learner).folder)/) in an erasure commit."
        if purgeHistory {
            question += (question.isEmpty ? "" : "\n\n") + erasure.purgeExplanation()
        }
        print(question)
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                throw CLIError(
                    "not asking for confirmation: stdin is not a terminal; run again with --yes to erase \(learner)")
            }
            print(
                "\nErase \(learner)\(purgeHistory ? " and rewrite history" : "")? Type the learner's name to confirm: ",
                terminator: "")
            guard readLine()?.trimmingCharacters(in: .whitespaces) == learner else {
                print("Not confirmed; nothing changed.")
                throw ExitCode.failure
            }
        }
        if !files.isEmpty {
            let result = try erasure.forget()
            print(
                "Erased \(result.files.count) file\(result.files.count == 1 ? "" : "s") of \(learner) in commit \(result.commit.map { String($0.description.prefix(7)) } ?? "—")."
            )
            if result.clearedDefaultUser { print("rote.yaml no longer names \(learner) as default_user.") }
        }
        if purgeHistory {
            ForgetCommand.describe(try await erasure.purgeHistory(), forcePush: erasure.forcePushCommand)
        }
    }

    /// What a history purge did, and the force push it leaves to do (forget and consent withdraw).
    static func describe(_ report: Erasure.PurgeReport, forcePush: String?) {
        print(
            "Rewrote \(report.rewritten) commit\(report.rewritten == 1 ? "" : "s"); moved \(report.references.joined(separator: ", "))."
        )
        if let note = report.pruneNote { print("Note: \(note).") }
        if let forcePush { print("Now push the rewritten history: \(forcePush)") }
    }
}
