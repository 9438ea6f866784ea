package import RoteModel

extension MemoryState {
    /// Whether the entry is a leech: forgotten in review at least `threshold` times (Anki's 8).
    ///
    /// Leeches waste study time; the study flow reports them so the learner can rewrite or
    /// suspend the entry. A threshold of 0 turns leeches off.
    package func isLeech(threshold: Int = SchedulerSettings.defaultLeechThreshold) -> Bool {
        threshold > 0 && lapses >= threshold
    }

    /// Whether the lapse that brought the entry to `lapses` should flag it again, as Anki does:
    /// at the threshold and every half threshold after it (8, 12, 16, … for 8).
    ///
    /// `isLeech` says what the entry is; this says when to tell the learner, so a leech is not
    /// announced after every later lapse.
    package static func isLeechMilestone(lapses: Int, threshold: Int = SchedulerSettings.defaultLeechThreshold) -> Bool
    {
        guard threshold > 0, lapses >= threshold else { return false }
        let half = max((threshold + 1) / 2, 1)
        return (lapses - threshold) % half == 0
    }

    /// Whether a review that took the entry from `lapsesBefore` lapses to `after`'s made it a
    /// leech, or a leech again at a later milestone: the moment to tell the learner and, when
    /// the deck's `leech_action` is `suspend`, to suspend it.
    package static func becameLeech(lapsesBefore: Int, after: MemoryState?, threshold: Int) -> Bool {
        guard let lapses = after?.lapses, lapses > lapsesBefore else { return false }
        return isLeechMilestone(lapses: lapses, threshold: threshold)
    }
}
