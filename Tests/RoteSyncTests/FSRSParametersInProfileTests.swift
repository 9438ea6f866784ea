import Foundation
import RoteModel
import RoteStore
import RoteSync
import Scheduling
import Testing

/// Fitted FSRS parameters in `profile.yaml`: read and written, used by every replay, checked,
/// and merged as one value per fit.
@Suite struct FSRSParametersInProfileTests {
    static let learner = [
        0.4, 1.2, 3.1, 9.5, 6.2, 0.8, 2.9, 0.01, 1.7, 0.15, 0.8, 1.5, 0.06, 0.27, 1.6, 0.55, 1.9, 0.5, 0.1, 0.06, 0.2,
    ]
    static let kjv = [
        0.3, 0.9, 2.0, 6.0, 7.0, 0.7, 3.1, 0.02, 1.9, 0.2, 0.9, 1.4, 0.05, 0.25, 1.7, 0.6, 1.8, 0.55, 0.09, 0.07, 0.3,
    ]

    static func list(_ values: [Double]) -> String { "[" + values.map { "\($0)" }.joined(separator: ", ") + "]" }

    static let text = """
        user: ana
        updated_at: 2026-11-20T10:00:00Z
        settings:
          daily_goal: 20
          fsrs_parameters: \(list(learner))
        deck_fsrs_parameters:
          kjv: \(list(kjv))

        """

    @Test func readAndWrittenAsOneLineEach() throws {
        let (profile, problems) = Profile.decode(Self.text, path: "profile.yaml")
        #expect(problems.isEmpty, "\(problems)")
        let read = try #require(profile)
        #expect(read.settings.fsrsParameters == Self.learner)
        #expect(read.deckFSRSParameters.count == 1)
        #expect(read.fsrsParameters(for: "kjv") == Self.kjv)
        #expect(read.fsrsParameters(for: "english-a1") == Self.learner)
        #expect(read.fsrsParameters(for: nil) == Self.learner)
        let rendered = read.render()
        #expect(rendered.contains("  fsrs_parameters: [0.4, 1.2, 3.1, 9.5, 6.2,"))
        #expect(rendered.contains("deck_fsrs_parameters:\n  kjv: [0.3, 0.9,"))
        #expect(Profile.decode(rendered, path: "profile.yaml").0 == read)
    }

    @Test func aListOfTheWrongLengthIsAnErrorOnItsLine() {
        let text = "user: ana\nsettings:\n  fsrs_parameters: [1, 2, 3]\n"
        let (profile, problems) = Profile.decode(text, path: "profile.yaml")
        #expect(profile?.settings.fsrsParameters == nil)
        #expect(
            problems.contains { $0.severity == .error && $0.line == 3 && $0.message.contains("21 FSRS-6 parameters") })
    }

    /// Every replay goes through `forDeck`: the deck's own fit, else the learner's, else the
    /// defaults — and parameters out of py-fsrs's bounds give way to the defaults, named by check.
    @Test func replaysUseTheDecksFitThenTheLearners() throws {
        let profile = try #require(Profile.decode(Self.text, path: "profile.yaml").0)
        #expect(SchedulerSettings.forDeck(nil, profile: profile, deckName: "kjv").parameters.values == Self.kjv)
        #expect(
            SchedulerSettings.forDeck(nil, profile: profile, deckName: "english-a1").parameters.values == Self.learner)
        #expect(SchedulerSettings.forDeck(nil, profile: nil, deckName: "kjv").parameters == .default)
        var outOfBounds = profile
        outOfBounds.settings.fsrsParameters![4] = 11
        outOfBounds.settings.desiredRetention = 0.85
        let fallback = SchedulerSettings.forDeck(nil, profile: outOfBounds, deckName: "english-a1")
        #expect(fallback.parameters == .default)
        #expect(fallback.desiredRetention == 0.85, "the rest of the learner's settings still apply")

        var library = LoadedLibrary(root: URL(fileURLWithPath: "/nonexistent"))
        library.profiles["ana"] = outOfBounds
        let problems = LibraryValidator.crossFileProblems(library)
        #expect(
            problems.contains {
                $0.severity == .error && $0.path == "profiles/ana/profile.yaml"
                    && $0.message.contains("parameters[4] = 11.0 is out of bounds")
            })
        #expect(
            problems.contains {
                $0.severity == .warning && $0.message.contains("names deck 'kjv', which is not in the library")
            })
    }

    func merge(_ base: String, _ ours: String, _ theirs: String) throws -> Profile {
        let forward = ProfileMerge.merge(base: Data(base.utf8), ours: Data(ours.utf8), theirs: Data(theirs.utf8))
        let backward = ProfileMerge.merge(base: Data(base.utf8), ours: Data(theirs.utf8), theirs: Data(ours.utf8))
        guard case .merged(let a) = forward, case .merged(let b) = backward else {
            Issue.record("conflict")
            throw CancellationError()
        }
        #expect(a == b, "the merge is symmetric")
        return try #require(Profile.decode(a, path: "merged.yaml").0)
    }

    /// A fit is one value: two devices that both optimised keep one whole set (the later
    /// `updated_at`), never a mixture; a fit on one side and another change on the other both
    /// survive; fits for different decks both survive.
    @Test func mergedAsOneValuePerFit() throws {
        let base = "user: ana\nupdated_at: 2026-11-20T10:00:00Z\nsettings:\n  daily_goal: 20\n"
        func fitted(_ values: [Double], at hour: Int, deck: String? = nil, goal: Int = 20) -> String {
            var text = "user: ana\nupdated_at: 2026-11-20T\(hour):00:00Z\nsettings:\n  daily_goal: \(goal)\n"
            if let deck {
                text += "deck_fsrs_parameters:\n  \(deck): \(Self.list(values))\n"
            } else {
                text += "  fsrs_parameters: \(Self.list(values))\n"
            }
            return text
        }
        let oneSide = try merge(
            base, fitted(Self.learner, at: 11),
            fitted([], at: 12, goal: 30).replacingOccurrences(of: "  fsrs_parameters: []\n", with: ""))
        #expect(oneSide.settings.fsrsParameters == Self.learner)
        #expect(oneSide.settings.dailyGoal == 30)

        let bothSides = try merge(base, fitted(Self.learner, at: 11), fitted(Self.kjv, at: 12))
        #expect(bothSides.settings.fsrsParameters == Self.kjv)

        let twoDecks = try merge(
            base, fitted(Self.learner, at: 11, deck: "english-a1"), fitted(Self.kjv, at: 12, deck: "kjv"))
        #expect(twoDecks.fsrsParameters(for: "english-a1") == Self.learner)
        #expect(twoDecks.fsrsParameters(for: "kjv") == Self.kjv)
        #expect(twoDecks.deckFSRSParameters.map(\.0) == ["english-a1", "kjv"])
    }
}
