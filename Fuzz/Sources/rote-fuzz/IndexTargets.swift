import Foundation
import StudyData

@testable import Launch

enum IndexTargets {
    /// The input as a launch index whose length and checksum fields are made to match, so
    /// the damage reaches the sections rather than stopping at the checksum; the reader must
    /// refuse it or answer every question without crashing.
    static func launchIndex(_ data: Data) {
        let storage = MappedFile(building: data.count) { buffer in
            data.withUnsafeBytes { buffer.copyMemory(from: $0) }
            LaunchIndex.seal(buffer)
        }
        guard let index = try? LaunchIndex(storage: storage) else { return }
        for entry in 0..<min(index.entryCount, 200) {
            _ = index.id(ofEntry: entry)
            _ = index.deck(ofEntry: entry)
            _ = index.gloss(ofEntry: entry)
            _ = index.path(ofEntry: entry)
            _ = index.rank(ofEntry: entry)
            _ = index.status(ofEntry: entry)
        }
        for token in ["run", "ran", "the", "a", ""] {
            _ = index.lookUp(token)
            _ = index.lemmas(of: token)
        }
        _ = index.progressSummaries()
        _ = index.recentAnswerTimes(last: 20)
        _ = index.dueDates()
        // Every digest mark is read where it lies, as `rote stats` reads them.
        _ = index.foldProgressDigests(
            into: { UInt64(0) },
            { sum, row in
                for mark in row.marks ?? ReviewMarks([]) { sum &+= mark.raw }
            })
        _ = index.entryFilesWithoutEntries()
        _ = index.files
        _ = index.rows()
    }
}
