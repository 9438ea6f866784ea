public import Launch
public import Study

extension LibraryLaunch {
    /// The planner over the index: the study engine's rules, the index's facts.
    public func planner() -> SessionPlanner {
        SessionPlanner(decks: decks, deckOrder: deckOrder, profile: profile, source: IndexPlanningSource(launch: self))
    }
}
