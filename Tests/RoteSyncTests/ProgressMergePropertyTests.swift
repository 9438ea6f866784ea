import Foundation
import RoteModel
import RoteSync
import Scheduling
import Testing

/// The properties sync relies on, over 1 000 random histories per test (4 seeds × 250
/// cases): symmetry, idempotence, convergence of three devices in every order, no lost
/// review, a status that is the last one written, and a `state` that is always a fresh replay.
///
/// Several properties are checked on the same merges, because a merge (two YAML decodes and a
/// render) is what the time goes on in a debug build.
@Suite struct ProgressMergePropertyTests {
    func merge(_ base: Data?, _ ours: Data, _ theirs: Data, _ settings: SchedulerSettings) -> String? {
        mergedText(ProgressMerge.merge(base: base, ours: ours, theirs: theirs, settings: settings))
    }

    /// Two devices: merge(a, b) == merge(b, a) byte for byte; the result holds exactly the
    /// union of both sides' review ids, in replay order; its status is the one written last;
    /// its state is the replay of its reviews and its text canonical; and merging the result
    /// again with either side changes nothing.
    @Test(arguments: propertySeeds)
    func twoDevices(seed: UInt64) {
        forAllCases(seed: seed, count: casesPerSeed) { random, index in
            let scenario = ProgressGenerator.scenario(&random, devices: 2)
            let (a, b) = (scenario.devices[0], scenario.devices[1])
            let (aData, bData) = (scenario.deviceData[0], scenario.deviceData[1])
            let ab = merge(scenario.baseData, aData, bData, scenario.settings)
            let ba = merge(scenario.baseData, bData, aData, scenario.settings)
            guard let text = ab, var merged = ProgressFile.decode(text, path: "merged.yaml").0 else {
                Issue.record("case \(index): both sides are valid, yet the merge conflicted or does not read back")
                return false
            }
            guard ab == ba else {
                Issue.record("case \(index): merge(a, b) != merge(b, a)\n\(text)\n\(ba ?? "conflict")")
                return false
            }

            let ids = merged.reviews.map(\.id)
            let expectedIDs = Set((a.reviews + b.reviews).map(\.id))
            let inOrder = zip(merged.reviews, merged.reviews.dropFirst()).allSatisfy { ReviewEvent.replayOrder($0, $1) }
            guard Set(ids) == expectedIDs, ids.count == expectedIDs.count, inOrder else {
                Issue.record(
                    "case \(index): merged ids \(ids) are not the union \(expectedIDs.sorted()) in replay order")
                return false
            }

            // `rote undo`'s mark: a review undone on either side is undone in the merge.
            let undoneIDs = Set((a.reviews + b.reviews).filter { $0.undone != nil }.map(\.id))
            guard Set(merged.reviews.filter { $0.undone != nil }.map(\.id)) == undoneIDs else {
                Issue.record("case \(index): the undone reviews are not those undone on either side\n\(text)")
                return false
            }

            let latest = [a.statusAt, b.statusAt].compactMap { $0 }.max()
            let statusesSetLast = [a, b].filter { $0.statusAt == latest }.map(\.status)
            guard merged.statusAt == latest, statusesSetLast.contains(merged.status) else {
                Issue.record(
                    "case \(index): status \(merged.status) at \(String(describing: merged.statusAt)) is not the last written"
                )
                return false
            }

            let written = merged.state
            merged.state = Scheduler(settings: scenario.settings).replay(
                merged.scheduledReviews, entryID: scenario.entry)
            guard written == merged.state, merged.render() == text else {
                Issue.record("case \(index): the merged state is not the replay of the merged reviews\n\(text)")
                return false
            }

            // What the other device's next sync does: merge this result with its own file.
            // (Alternating sides between cases: each merge costs two YAML decodes.)
            let again = merge(
                scenario.baseData, bytes(text), index.isMultiple(of: 2) ? aData : bData, scenario.settings)
            guard again == text else {
                Issue.record("case \(index): merging the result again with a side changed it")
                return false
            }
            return true
        }
    }

    /// merge(a, a) == a for a canonical file, with the real base and with none.
    @Test(arguments: propertySeeds)
    func mergingAFileWithItselfChangesNothing(seed: UInt64) {
        forAllCases(seed: seed, count: casesPerSeed) { random, index in
            let scenario = ProgressGenerator.scenario(&random, devices: 1)
            let a = scenario.deviceData[0]
            let text = String(decoding: a, as: UTF8.self)
            let results = [scenario.baseData, nil].map { merge($0, a, a, scenario.settings) }
            let ok = results.allSatisfy { $0 == text }
            #expect(ok, "case \(index): merge(a, a) != a\n\(text)\n\(results.map { $0 ?? "conflict" })")
            return ok
        }
    }

    /// Three devices branching from one base, merged in every order — each pair first, then
    /// the third into their result as ours and as theirs (which side the first two take is
    /// `twoDevices`' symmetry) — all end with the same bytes, holding every review id found
    /// on any device.
    @Test(arguments: propertySeeds)
    func threeDevicesConvergeInEveryOrder(seed: UInt64) {
        forAllCases(seed: seed, count: casesPerSeed) { random, index in
            let scenario = ProgressGenerator.scenario(&random, devices: 3)
            let devices = scenario.deviceData
            var results = Set<String?>()
            for (first, second, third) in [(0, 1, 2), (0, 2, 1), (1, 2, 0)] {
                guard let pair = merge(scenario.baseData, devices[first], devices[second], scenario.settings) else {
                    return false
                }
                results.insert(merge(scenario.baseData, bytes(pair), devices[third], scenario.settings))
                results.insert(merge(scenario.baseData, devices[third], bytes(pair), scenario.settings))
            }
            guard results.count == 1, let text = results.first!,
                let merged = ProgressFile.decode(text, path: "merged.yaml").0
            else {
                Issue.record("case \(index): three devices ended in \(results.count) different files")
                return false
            }
            let expected = Set(scenario.devices.flatMap { $0.reviews.map(\.id) })
            let ok = Set(merged.reviews.map(\.id)) == expected && merged.reviews.count == expected.count
            #expect(ok, "case \(index): \(merged.reviews.count) reviews after merging, expected \(expected.count)")
            return ok
        }
    }
}
