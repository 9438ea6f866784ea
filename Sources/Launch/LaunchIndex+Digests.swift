package import Foundation
import Parallelism
package import RoteModel
import RoteStore
package import StudyData

/// What statistics read of one progress file.
package struct ProgressDigest: Sendable {
    package let id: String
    package let status: ProgressFile.Status
    package let state: MemoryState?
    /// Nil when the row was built without a digest.
    package let marks: ReviewMarks?
    package let replayed: MemoryState?
}

extension LaunchIndex {
    /// Folds every progress file the index holds (orphans too, the overlay's changes applied)
    /// on every core: base rows are read in place, a share at a time, each share into a
    /// partial of its own; the delta's rows go into one more. Sum the partials.
    package func foldProgressDigests<Partial: Sendable>(
        into initial: @escaping @Sendable () -> Partial,
        _ fold: @escaping @Sendable (inout Partial, ProgressDigest) -> Void
    ) -> [Partial] {
        let changed = changedProgress()
        let progressBase = sections[Section.progress.rawValue].0
        let marksBase = sections[Section.marks.rawValue].0
        let reader = reader
        let stringsBase = stringsBase
        let overridden = Set(changed.keys)
        let shares = stride(from: 0, to: progressCount, by: 2_048).map { $0..<min($0 + 2_048, progressCount) }
        var partials = shares.concurrentMap { rows -> Partial in
            var partial = initial()
            for row in rows {
                let at = progressBase + row * Layout.Progress.stride
                let (idOffset, idLength) = reader.text(at + Layout.Progress.id)
                let id = reader.string(stringsBase + idOffset, idLength)
                if !overridden.isEmpty, overridden.contains(id) { continue }
                fold(
                    &partial,
                    ProgressDigest(
                        id: id, status: LaunchIndex.progressStatus(reader, at: at),
                        state: LaunchIndex.storedState(reader, at: at),
                        marks: LaunchIndex.marks(reader, at: at, marksSection: marksBase),
                        replayed: LaunchIndex.replayed(reader, at: at)))
            }
            return partial
        }
        var kept = initial()
        for (id, summary) in changed {
            guard let summary else { continue }
            fold(
                &kept,
                ProgressDigest(
                    id: id, status: summary.status, state: summary.state,
                    marks: summary.digest.map { ReviewMarks($0.marks) }, replayed: summary.digest?.replayed))
        }
        partials.append(kept)
        return partials
    }

    /// The progress the overlay holds instead of the base, by entry id (nil: the file is gone).
    func changedProgress() -> [String: ProgressSummary?] {
        var changed: [String: ProgressSummary?] = [:]
        for (entry, summary) in overlay.progress { changed[id(reference: entry)] = summary }
        for (id, summary) in overlay.orphanProgress { changed[id] = summary }
        for entry in overlay.added { changed[entry.row.id] = entry.progress }
        return changed
    }

    /// Calls `base` with the offset of every base progress row the overlay leaves alone, then
    /// `kept` with each progress summary the overlay holds: every progress file once, the base
    /// read in place.
    func forEachProgress(base: (_ at: Int) -> Void, kept: (_ id: String, ProgressSummary) -> Void) {
        let changed = changedProgress()
        for row in 0..<progressCount {
            let at = progressOffset(row)
            if !changed.isEmpty, changed[string(at: at + Layout.Progress.id)] != nil { continue }
            base(at)
        }
        for (id, summary) in changed {
            if let summary { kept(id, summary) }
        }
    }

    /// When each active entry with a state is due, by id, read in place.
    package func dueDates() -> [String: Date] {
        var dues: [String: Date] = [:]
        forEachProgress(
            base: { at in
                guard LaunchIndex.progressStatus(reader, at: at) == .active,
                    LaunchIndex.progressFlags(reader, at: at).contains(.state)
                else { return }
                dues[string(at: at + Layout.Progress.id)] = LaunchIndex.memoryState(reader, at: at, .stored).due
            },
            kept: { id, summary in
                if summary.status == .active, let due = summary.state?.due { dues[id] = due }
            })
        return dues
    }
}
