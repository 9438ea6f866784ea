/// Where everything lies in a launch index: the sections and the size of their rows, which
/// the reader (`LaunchIndex`), the builder (`LaunchIndexBuilder.swift`) and the delta
/// (`Overlay`) share.
extension LaunchIndex {
    static let magic: [UInt8] = Array("ROTEIDXC".utf8)

    enum Section: Int, CaseIterable {
        case settings, strings, entries, entryForms, progress, slots, lemmaLists, files, marks
    }

    enum Stride {
        static let entry = 72, entryForm = 8, progress = 248, slot = 32, lemma = 4, file = 64, mark = 8
        /// Bytes of a form kept in its slot: a form this short is matched without reading the strings.
        static let inlineForm = 16
    }

    static let headerSize = 24 + Section.allCases.count * 16

    /// Where a memory state's fields lie in a progress row: the file's stored state, or the
    /// digest's replayed one.
    struct StateLayout {
        let phase, reps, lapses, step, due, stability, difficulty, ease, interval, lastReview: Int
        static let stored = StateLayout(
            phase: 12, reps: 16, lapses: 20, step: 24, due: 32, stability: 40, difficulty: 48, ease: 56, interval: 64,
            lastReview: 72)
        static let replayed = StateLayout(
            phase: 177, reps: 188, lapses: 192, step: 196, due: 200, stability: 208, difficulty: 216, ease: 224,
            interval: 232, lastReview: 240)
    }
}
