import Foundation
import RoteModel
import RoteSync
import Testing

/// The profile merge's properties over 1 000 random edits per test (4 seeds × 250 cases),
/// checked against an independent statement of the rules (`expectedKey`, `expectedSet`).
///
/// Several properties are checked on the same merges, because a merge (YAML decodes and a
/// render) is what the time goes on in a debug build.
@Suite struct ProfileMergePropertyTests {
    func merge(_ base: Data?, _ ours: Data, _ theirs: Data) -> String? {
        mergedText(ProfileMerge.merge(base: base, ours: ours, theirs: theirs))
    }

    /// The rule for one key, stated on the values' text (nil = absent): one side changed →
    /// that side; both changed differently → later `updated_at` (nil oldest); a tie → the
    /// text that sorts last (any value over absent).
    func expectedKey(_ base: String?, _ ours: String?, _ theirs: String?, _ oursAt: Date?, _ theirsAt: Date?) -> String?
    {
        if ours == theirs { return ours }
        if ours == base { return theirs }
        if theirs == base { return ours }
        if oursAt != theirsAt { return isLater(theirsAt, than: oursAt) ? theirs : ours }
        guard let ours else { return theirs }
        guard let theirs else { return ours }
        return max(ours, theirs)
    }

    func isLater(_ lhs: Date?, than rhs: Date?) -> Bool {
        guard let lhs else { return false }
        guard let rhs else { return true }
        return lhs > rhs
    }

    func expectedSet(_ base: [String], _ ours: [String], _ theirs: [String]) -> Set<String> {
        let (b, o, t) = (Set(base), Set(ours), Set(theirs))
        return b.union(o.subtracting(b)).union(t.subtracting(b)).subtracting(b.subtracting(o)).subtracting(
            b.subtracting(t))
    }

    func consentText(_ profile: Profile?, _ topic: String) -> String? {
        profile?.consent.first { $0.topic == topic }.map { "\($0.granted) \(Timestamp.format($0.at)) \($0.version)" }
    }

    func weightText(_ profile: Profile?, _ topic: String) -> String? {
        profile?.interests.first { $0.0 == topic }.map { YAMLValue.format($0.1) }
    }

    /// Two devices: merge(a, b) == merge(b, a) byte for byte; ignored words and interest
    /// topics keep both sides' adds and removes; every scalar key, interest weight and consent
    /// answer follows the three-way rule (a key changed on both sides takes the later
    /// `updated_at`); `updated_at` is the later of the two; and merging the result again with
    /// either side changes nothing. The generator must really produce both-sides changes that
    /// `updated_at` decides, so the rule cannot pass by never being met.
    @Test(arguments: propertySeeds)
    func twoDevices(seed: UInt64) {
        var decidedByTime = 0
        forAllCases(seed: seed, count: casesPerSeed) { random, index in
            let scenario = ProfileGenerator.scenario(&random, devices: 2)
            let (base, a, b) = (scenario.base, scenario.devices[0], scenario.devices[1])
            let (aData, bData) = (scenario.deviceData[0], scenario.deviceData[1])
            let ab = merge(scenario.baseData, aData, bData)
            let ba = merge(scenario.baseData, bData, aData)
            guard let text = ab, let merged = Profile.decode(text, path: "merged.yaml").0 else {
                Issue.record("case \(index): both sides are valid, yet the merge conflicted or does not read back")
                return false
            }
            guard ab == ba else {
                Issue.record("case \(index): merge(a, b) != merge(b, a)\n\(text)\n\(ba ?? "conflict")")
                return false
            }

            let words = expectedSet(base?.ignoredWords ?? [], a.ignoredWords, b.ignoredWords)
            let topics = expectedSet(base?.interests.map(\.0) ?? [], a.interests.map(\.0), b.interests.map(\.0))
            guard Set(merged.ignoredWords) == words, merged.ignoredWords.count == words.count,
                Set(merged.interests.map(\.0)) == topics, merged.interests.count == topics.count
            else {
                Issue.record(
                    "case \(index): words \(merged.ignoredWords.sorted()) expected \(words.sorted()); topics \(merged.interests.map(\.0)) expected \(topics.sorted())"
                )
                return false
            }

            var checks: [(String, String?, String?, String?)] = ProfileGenerator.scalarFields.map { field in
                (field.name, base.flatMap(field.text), field.text(a), field.text(b))
            }
            for topic in merged.interests.map(\.0) {
                checks.append(
                    ("interests." + topic, weightText(base, topic), weightText(a, topic), weightText(b, topic)))
            }
            for topic in ProfileGenerator.consentTopics {
                checks.append(
                    ("consent." + topic, consentText(base, topic), consentText(a, topic), consentText(b, topic)))
            }
            let actual: [String: String?] = Dictionary(
                uniqueKeysWithValues: ProfileGenerator.scalarFields.map { ($0.name, $0.text(merged)) }
                    + merged.interests.map { ("interests." + $0.0, weightText(merged, $0.0)) }
                    + ProfileGenerator.consentTopics.map { ("consent." + $0, consentText(merged, $0)) })
            for (name, baseValue, oursValue, theirsValue) in checks {
                let expected = expectedKey(baseValue, oursValue, theirsValue, a.updatedAt, b.updatedAt)
                if oursValue != baseValue, theirsValue != baseValue, oursValue != theirsValue,
                    a.updatedAt != b.updatedAt
                {
                    decidedByTime += 1
                }
                guard actual[name] == expected else {
                    Issue.record(
                        "case \(index): \(name) is \(String(describing: actual[name])), expected \(String(describing: expected)) (base \(String(describing: baseValue)), ours \(String(describing: oursValue)) at \(String(describing: a.updatedAt)), theirs \(String(describing: theirsValue)) at \(String(describing: b.updatedAt)))"
                    )
                    return false
                }
            }

            let later = isLater(a.updatedAt, than: b.updatedAt) ? a.updatedAt : b.updatedAt
            guard merged.updatedAt == later else {
                Issue.record(
                    "case \(index): updated_at \(String(describing: merged.updatedAt)), expected \(String(describing: later))"
                )
                return false
            }

            // What the other device's next sync does: merge this result with its own file.
            // (Alternating sides between cases: each merge costs two YAML decodes.)
            let again = merge(scenario.baseData, bytes(text), index.isMultiple(of: 2) ? aData : bData)
            guard again == text else {
                Issue.record(
                    "case \(index): merging the result again with a side changed it\n\(text)\n\(again ?? "conflict")")
                return false
            }
            return true
        }
        #expect(
            decidedByTime > 50,
            "only \(decidedByTime) keys were changed on both sides; the generator does not exercise the rule")
    }

    /// merge(a, a) == a for a canonical profile, with the real base and with none.
    @Test(arguments: propertySeeds)
    func mergingAFileWithItselfChangesNothing(seed: UInt64) {
        forAllCases(seed: seed, count: casesPerSeed) { random, index in
            let scenario = ProfileGenerator.scenario(&random, devices: 1)
            let a = scenario.deviceData[0]
            let text = String(decoding: a, as: UTF8.self)
            let results = [scenario.baseData, nil].map { merge($0, a, a) }
            let ok = results.allSatisfy { $0 == text }
            #expect(ok, "case \(index): merge(a, a) != a\n\(text)\n\(results.map { $0 ?? "conflict" })")
            return ok
        }
    }

    /// With one `updated_at` per file a key changed on two devices goes to whichever changed
    /// anything last, so only edits where no key is changed twice are order-independent; for
    /// those, three devices end byte-identical in every merge order (each pair first, then
    /// the third as ours and as theirs).
    @Test(arguments: propertySeeds)
    func threeDevicesConvergeWhenNoKeyIsChangedTwice(seed: UInt64) {
        forAllCases(seed: seed, count: casesPerSeed) { random, index in
            let scenario = ProfileGenerator.scenario(&random, devices: 3, exclusiveKeys: true)
            let devices = scenario.deviceData
            var results = Set<String?>()
            for (first, second, third) in [(0, 1, 2), (0, 2, 1), (1, 2, 0)] {
                guard let pair = merge(scenario.baseData, devices[first], devices[second]) else { return false }
                results.insert(merge(scenario.baseData, bytes(pair), devices[third]))
                results.insert(merge(scenario.baseData, devices[third], bytes(pair)))
            }
            let ok = results.count == 1 && results.first! != nil
            #expect(ok, "case \(index): three devices ended in \(results.count) different files")
            return ok
        }
    }
}
