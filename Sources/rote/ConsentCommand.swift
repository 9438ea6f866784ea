import ArgumentParser
import Exchange
import Foundation
import Git
import RoteLibrary
import RoteStore

#if canImport(Glibc)
import Glibc
import RoteModel
#endif

struct ConsentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consent",
        abstract: "Whether Rote may keep your passage practice (religious data): status, grant, withdraw.",
        discussion: """
            Practising scripture is religious data (GDPR Art. 9), so Rote keeps passage practice — \
            progress, ladder steps, session attempts, reflections — only with your consent, asked \
            once before your first passage and recorded in your profile with its time. Without it \
            nothing about passages is written and passage decks are not studied; other decks are \
            unaffected.

              rote consent             what you answered, and when
              rote consent grant       let Rote keep passage practice
              rote consent withdraw    erase all your passage practice in one erasure commit, \
            which sync honours (a clone that changed those files meanwhile does not bring them \
            back); --purge-history also rewrites history so that no commit holds it.
            """
    )

    enum Action: String, ExpressibleByArgument, CaseIterable {
        case status, grant, withdraw
    }

    @ParentCommand var rote: RoteCommand

    @Argument(help: ArgumentHelp("status (default), grant or withdraw.", valueName: "action"))
    var action: Action = .status

    @Flag(help: "With withdraw: also rewrite history so that no commit holds the erased practice.")
    var purgeHistory = false

    @Flag(help: "With withdraw --purge-history: do not ask for confirmation.")
    var yes = false

    func validate() throws {
        if purgeHistory, action != .withdraw { throw ValidationError("--purge-history goes with withdraw") }
    }

    func run() async throws {
        let library = try CommandContext.library(rote.global)
        let user = library.user
        switch action {
        case .status:
            let profile = try ReadBeforeRewrite.read(Profile.self, at: library.paths.profile, in: library.root)
            guard let profile else {
                throw CLIError(
                    "no learner '\(user)' in this library (\(LibraryPaths(user: user).profile)); use --user NAME")
            }
            print(ConsentCommand.describe(profile.passagePracticeConsent, what: "passage practice"))
            print(ConsentCommand.describe(profile.consentAnswer("reflections", version: "1"), what: "reflections"))
        case .grant:
            let answer = try library.recordPassageConsent(granted: true)
            print(
                "Recorded at \(Timestamp.local(answer.at)): Rote may keep your passage practice. `rote consent withdraw` takes it back and erases it."
            )
        case .withdraw:
            // The lock is held by the writer's lifetime, through `git gc` too.
            let erasure = try library.prepareErasure(purpose: "consent withdraw")
            defer { withExtendedLifetime(erasure) {} }
            let result = try erasure.withdrawPassageConsent()
            print("Consent withdrawn: Rote keeps no passage practice of \(user) from now on.")
            if result.commit != nil {
                print(
                    "Erased \(result.deleted.count) file\(result.deleted.count == 1 ? "" : "s") and removed passage attempts from \(result.rewritten.count) session\(result.rewritten.count == 1 ? "" : "s") in commit \(result.commit.map { String($0.description.prefix(7)) } ?? "—"); sync keeps them erased."
                )
            }
            guard purgeHistory else {
                print(PassageConsent.purgeAdvice(user: user))
                return
            }
            print(
                erasure.purgeExplanation(
                    scope: "the passage practice of \(user) (passage progress files and session attempts)"))
            if !yes {
                guard isatty(STDIN_FILENO) == 1 else {
                    throw CLIError(
                        "not asking for confirmation: stdin is not a terminal; run `rote consent withdraw --purge-history --yes` to rewrite history"
                    )
                }
                print("\nRewrite history? Type yes to confirm: ", terminator: "")
                guard readLine()?.trimmingCharacters(in: .whitespaces) == "yes" else {
                    print("Not confirmed; history is unchanged (the erasure commit stands).")
                    return
                }
            }
            ForgetCommand.describe(
                try await erasure.purgeHistory(passagesOnly: true), forcePush: erasure.forcePushCommand)
        }
    }

    static func describe(_ answer: Profile.Consent?, what: String) -> String {
        guard let answer else { return "\(what): not asked yet" }
        return "\(what): \(answer.granted ? "granted" : "not granted") at \(Timestamp.local(answer.at))"
    }
}
