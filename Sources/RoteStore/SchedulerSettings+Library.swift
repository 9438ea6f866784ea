import Foundation
package import RoteModel
package import Scheduling

extension SchedulerSettings {
    /// The settings an entry of `deck` is replayed with for a learner: the deck's scheduler,
    /// the learner's desired retention, maximum interval and fuzz choice, learning and
    /// relearning steps (the learner's, else the deck's, else the defaults), and the FSRS
    /// parameters `rote optimize` fitted — for this deck (`deckName`) if it has its own, else
    /// the learner's. Values the profile loader already rejected never reach here, so this
    /// cannot fail; parameters outside py-fsrs's bounds (a hand edit `rote check` reports) give
    /// way to the defaults, and should a combination still be refused, the defaults for the
    /// deck's scheduler apply.
    package static func forDeck(_ deck: DeckManifest?, profile: Profile?, deckName: String? = nil) -> SchedulerSettings
    {
        let settings = profile?.settings
        for parameters in [profile?.fsrsParameters(for: deckName), nil] {
            if let chosen = try? SchedulerSettings(
                scheduler: deck?.scheduler ?? .fsrs, parameters: parameters,
                desiredRetention: settings?.desiredRetention,
                learningSteps: settings?.learningSteps ?? deck?.learningSteps,
                relearningSteps: settings?.relearningSteps ?? deck?.relearningSteps,
                maximumInterval: settings?.maximumInterval, enableFuzzing: settings?.fuzz)
            {
                return chosen
            }
        }
        return (try? SchedulerSettings(scheduler: deck?.scheduler ?? .fsrs)) ?? .default
    }
}
