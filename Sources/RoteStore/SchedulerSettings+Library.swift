import Foundation
import Scheduling

extension SchedulerSettings {
    /// The settings an entry of `deck` is replayed with for a learner: the deck's scheduler,
    /// the learner's desired retention, maximum interval and fuzz choice. Values the profile
    /// loader already rejected never reach here, so this cannot fail; should a combination
    /// still be refused, the defaults for the deck's scheduler apply.
    public static func forDeck(_ deck: DeckManifest?, profile: Profile?) -> SchedulerSettings {
        let settings = profile?.settings
        if let chosen = try? SchedulerSettings(
            scheduler: deck?.scheduler ?? .fsrs, desiredRetention: settings?.desiredRetention,
            maximumInterval: settings?.maximumInterval, enableFuzzing: settings?.fuzz)
        {
            return chosen
        }
        return (try? SchedulerSettings(scheduler: deck?.scheduler ?? .fsrs)) ?? .default
    }
}
