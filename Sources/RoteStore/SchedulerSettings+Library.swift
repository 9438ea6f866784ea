import Foundation
package import RoteModel
package import Scheduling

extension SchedulerSettings {
    /// The settings an entry of `deck` is replayed with for a learner (`DeckSchedule`): the
    /// deck's scheduler; each of retention, maximum interval, steps and leech rule from the
    /// learner's choices for this deck, else the learner's own, else the deck's, else the
    /// default; the learner's fuzz choice; and the FSRS parameters `rote optimize` fitted, for
    /// this deck (`deckName`) if it has its own, else the learner's.
    package static func forDeck(_ deck: DeckManifest?, profile: Profile?, deckName: String? = nil) -> SchedulerSettings
    {
        DeckSchedule(deck, profile: profile, deckName: deckName).settings
    }
}

/// Which settings schedule one deck for one learner, and where each came from — what
/// `rote show` and `rote stats` say, so a learner can tell why a deck schedules as it does.
///
/// Values the profile and deck loaders already rejected never reach here, so this cannot
/// fail: parameters outside py-fsrs's bounds (a hand edit `rote check` reports) give way to
/// the defaults, and should a combination still be refused, the defaults for the deck's
/// scheduler apply.
package struct DeckSchedule: Sendable {
    /// The layer a value was taken from.
    package enum Source: Sendable, Hashable {
        /// `deck_settings.<deck>` in the learner's profile.
        case learnerForDeck
        /// `settings:` in the learner's profile.
        case learner
        /// The deck's `deck.yaml`.
        case deck
        case standard
    }

    /// Where the FSRS parameters came from.
    package enum Parameters: Sendable, Hashable {
        /// `rote optimize --deck` fitted them to this deck's reviews.
        case fittedToDeck
        /// `rote optimize` fitted them to all the learner's reviews.
        case fittedToLearner
        case standard
    }

    package let settings: SchedulerSettings
    package let retention: Source
    package let maximumInterval: Source
    package let learningSteps: Source
    package let relearningSteps: Source
    package let leech: Source
    package let parameters: Parameters

    package init(_ deck: DeckManifest?, profile: Profile?, deckName: String? = nil) {
        let layers: [(Source, SchedulingChoices)] = [
            (.learnerForDeck, profile?.schedulingChoices(for: deckName) ?? SchedulingChoices()),
            (.learner, profile?.settings.scheduling ?? SchedulingChoices()),
            (.deck, deck?.scheduling ?? SchedulingChoices()),
        ]
        let chosen = layers.reversed().reduce(SchedulingChoices()) { lower, layer in layer.1.over(lower) }
        func source(_ isSet: (SchedulingChoices) -> Bool) -> Source {
            layers.first { isSet($0.1) }?.0 ?? .standard
        }
        retention = source { $0.desiredRetention != nil }
        maximumInterval = source { $0.maximumInterval != nil }
        learningSteps = source { $0.learningSteps != nil }
        relearningSteps = source { $0.relearningSteps != nil }
        leech = source { $0.leechThreshold != nil || $0.leechAction != nil }
        let fitted = profile?.fsrsParameters(for: deckName)
        let fittedToDeck =
            deckName.map { name in profile?.deckFSRSParameters.contains { $0.0 == name } == true } ?? false
        var found: (SchedulerSettings, Parameters)?
        for parameters in [fitted, nil] {
            if let settings = try? SchedulerSettings(
                scheduler: deck?.scheduler ?? .fsrs, parameters: parameters,
                desiredRetention: chosen.desiredRetention, learningSteps: chosen.learningSteps,
                relearningSteps: chosen.relearningSteps, maximumInterval: chosen.maximumInterval,
                enableFuzzing: profile?.settings.fuzz, leechThreshold: chosen.leechThreshold,
                leechAction: chosen.leechAction)
            {
                found = (
                    settings, parameters == nil ? .standard : fittedToDeck ? .fittedToDeck : .fittedToLearner
                )
                break
            }
        }
        let fallback = (try? SchedulerSettings(scheduler: deck?.scheduler ?? .fsrs)) ?? .default
        (settings, parameters) = found ?? (fallback, .standard)
    }
}
