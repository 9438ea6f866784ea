import Foundation
import Git
import RoteModel
public import RoteStore
public import Scheduling
import Study

/// What `rote optimize` did: the fit, the reviews it was fitted to, and whether the library
/// took it.
public struct Optimization: Sendable {
    /// What became of a fit.
    public enum Result: Sendable {
        /// Nothing was to be written: --dry-run, or too little data.
        case notWritten
        /// Recorded in the profile and the learner's progress replayed with it.
        case committed(String, replayed: Int)
        /// The fit is what the profile already holds.
        case unchanged
        /// The fit predicts the reviews no better than the parameters in use.
        case notBetter
    }

    public var outcome: FSRSOptimizer.Outcome
    public var data: FSRSDataset
    /// The parameters in use before.
    public var current: [Double]
    public var result: Result
    /// The current and fitted parameters' scores over `data`, when a fit was made.
    public var scores: (before: FSRSOptimizer.Evaluation?, after: FSRSOptimizer.Evaluation?)?
}

extension Library {
    /// The learner's files (`FSRSFitting.loadLearner`), with a readable profile and `deck`, if
    /// given, a deck of the library scheduled by FSRS.
    public func learnerForFitting(deck: String?) throws -> LoadedLibrary {
        try LibraryError.surfacing {
            let library = try FSRSFitting.loadLearner(root: root, user: user)
            if library.profiles[user] == nil {
                let path = paths.profile
                if let problem = library.errors.sorted(by: Diagnostic.fileOrder).first(where: { $0.path == path }) {
                    throw LibraryError(
                        .unreadable,
                        "the profile of '\(user)' does not read.\n\(problem.description)\nFix the file, then run `rote check`."
                    )
                }
                throw LibraryError(.notFound, "no learner '\(user)' in this library (\(path)); use --user NAME")
            }
            if let deck, library.decks[deck] == nil {
                throw LibraryError(
                    .notFound,
                    "no deck '\(deck)' in this library; the decks are \(library.deckOrder.joined(separator: ", "))")
            }
            if let deck, library.decks[deck]?.scheduler == .sm2 {
                throw LibraryError(
                    .invalidValue,
                    "deck '\(deck)' is scheduled by SM-2 (scheduler: sm2 in \(LibraryPaths.deckManifest(deck))), which has no FSRS parameters; remove that line to schedule it with FSRS"
                )
            }
            return library
        }
    }

    /// Fits FSRS-6 to the learner's reviews (of `deck` only, when given) and, unless
    /// `dryRun`, records the parameters in the profile and replays the learner's progress with
    /// them, in one commit. Parameters that predict these very reviews no better than the ones
    /// in use are not recorded, as Anki does: not worth a reschedule (a deck's own fit on few
    /// reviews, say, against the learner's fit on many). The lock is held from the first read,
    /// so what the fit sees is what it rewrites.
    public func optimize(deck: String?, configuration: FSRSOptimizer.Configuration, dryRun: Bool) throws
        -> Optimization
    {
        try write(purpose: "optimize") { git in
            let library = try learnerForFitting(deck: deck)
            try FSRSFitting.checkReadable(library: library, user: user, deck: deck)
            let profile = library.profiles[user]!
            let data = FSRSDataset(histories: FSRSFitting.histories(library: library, user: user, deck: deck))
            let current = FSRSFitting.currentParameters(profile: profile, deck: deck)
            let outcome = FSRSOptimizer.fit(data, configuration: configuration)
            guard case .fitted(let fit) = outcome else {
                return Optimization(outcome: outcome, data: data, current: current, result: .notWritten)
            }
            let before = FSRSOptimizer.evaluate(data, parameters: current, threads: configuration.threads)
            let after = FSRSOptimizer.evaluate(data, parameters: fit.parameters, threads: configuration.threads)
            let recorded =
                deck.map { name in profile.deckFSRSParameters.first { $0.0 == name }?.1 }
                ?? profile.settings.fsrsParameters
            let result: Optimization.Result
            if recorded == fit.parameters {
                // The same reviews fit the same parameters: nothing to record or replay.
                result = .unchanged
            } else if let before, let after, after.logLoss >= before.logLoss {
                result = .notBetter
            } else if dryRun {
                result = .notWritten
            } else {
                let (changes, replayed) = FSRSFitting.changes(
                    library: library, user: user, profile: profile, deck: deck, parameters: fit.parameters,
                    now: Date())
                let body = """
                    log loss \(FSRSFitting.fixed(before?.logLoss, 4)) → \(FSRSFitting.fixed(after?.logLoss, 4))
                    RMSE(bins) \(FSRSFitting.fixed(before?.rmseBins, 4)) → \(FSRSFitting.fixed(after?.rmseBins, 4))
                    (fsrs-rs's definitions, over \(data.itemCount) reviews a day or more after the one before)
                    parameters: \(FSRSFitting.list(fit.parameters))
                    replayed \(replayed) progress file\(replayed == 1 ? "" : "s") with them
                    """
                let commit = try git.apply(
                    changes: changes,
                    message: CommitMessage(
                        subject:
                            "Optimize: FSRS parameters for \(deck.map { "\(user)'s \($0) deck" } ?? user) from \(data.itemCount) reviews",
                        body: body))
                result = .committed(commit.map { String($0.hex.prefix(7)) } ?? "none", replayed: replayed)
            }
            return Optimization(
                outcome: outcome, data: data, current: current, result: result, scores: (before, after))
        }
    }
}
