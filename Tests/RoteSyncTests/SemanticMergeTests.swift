import Foundation
import RoteModel
import RoteStore
import RoteSync
import Scheduling
import Testing

/// The write-once driver, the path → driver mapping and the single entry point.
@Suite struct SemanticMergeTests {
    let session = bytes("id: s1\nuser: ana\nstarted_at: 2026-11-16T18:59:34Z\n")
    let editedB = bytes("id: s1\nuser: ana\nstarted_at: 2026-11-16T18:59:35Z\n")
    let editedA = bytes("id: s1\nuser: ana\nstarted_at: 2026-11-16T18:59:33Z\n")

    @Test func immutableKeepsIdenticalFiles() {
        #expect(ImmutableMerge.merge(base: nil, ours: session, theirs: session) == .merged(session))
    }

    /// One side edited the file (by hand): that edit is kept, as git would keep it.
    @Test func immutableTakesTheOnlySideThatChanged() {
        #expect(ImmutableMerge.merge(base: session, ours: session, theirs: editedB) == .merged(editedB))
        #expect(ImmutableMerge.merge(base: session, ours: editedB, theirs: session) == .merged(editedB))
    }

    /// Two contents for one path: the byte-wise smaller, whichever side is ours.
    @Test(arguments: [nil, Data("id: s1\n".utf8)])
    func immutableChoosesTheSmallerOfTwoContents(base: Data?) {
        #expect(ImmutableMerge.merge(base: base, ours: editedA, theirs: editedB) == .merged(editedA))
        #expect(ImmutableMerge.merge(base: base, ours: editedB, theirs: editedA) == .merged(editedA))
        // A prefix sorts first.
        let longer = editedA + bytes("ended_at: 2026-11-16T19:02:43Z\n")
        #expect(ImmutableMerge.merge(base: base, ours: longer, theirs: editedA) == .merged(editedA))
    }

    /// Symmetric and order-independent over random contents, like the other drivers.
    @Test func immutableIsSymmetricAndConverges() {
        forAllCases(seed: 9, count: 1_000) { random, index in
            let pool = [session, editedA, editedB, bytes("x\n"), Data()]
            let base = random.chance(0.2) ? nil : random.pick(pool)
            let devices = (0..<3).map { _ in random.pick(pool) }
            func merge(_ ours: Data, _ theirs: Data) -> Data? {
                guard case .merged(let data) = ImmutableMerge.merge(base: base, ours: ours, theirs: theirs) else {
                    return nil
                }
                return data
            }
            guard merge(devices[0], devices[1]) == merge(devices[1], devices[0]) else { return false }
            var results = Set<Data?>()
            for (first, second, third) in permutations3 {
                guard let pair = merge(devices[first], devices[second]) else { return false }
                results.insert(merge(pair, devices[third]))
            }
            #expect(results.count == 1, "case \(index)")
            return results.count == 1
        }
    }

    @Test(
        arguments: [
            ("profiles/ana/progress/english-a1/run.yaml", MergeKind.progress),
            ("profiles/ana/progress/math/algebra/expressions/expand_brackets.yaml", .progress),
            ("profiles/ana/profile.yaml", .profile),
            ("profiles/demo/sessions/2026/11/0f5313ad-17cb-4db7-8b73-c903620b64dc.yaml", .immutable),
            ("profiles/ana/saved/story-1.yaml", .immutable),
            ("corpus/english-a1/run.yaml", .entry), ("corpus/english-a1/deck.yaml", .entry),
            ("corpus/profiles/ana/profile.yaml", .entry),
        ] as [(String, MergeKind)])
    func pathsWithADriver(path: String, kind: MergeKind) {
        #expect(MergeKind.forPath(path) == kind)
    }

    /// What `.gitattributes` gives no driver, git merges line by line.
    @Test(arguments: [
        "rote.yaml", ".gitattributes", "corpus",
        "profiles/profile.yaml", "profiles/ana/notes.yaml", "profiles/ana/x/profile.yaml",
        "profiles//profile.yaml", "profiles/ana/progress", "profiles/ana/progress/",
        "profiles/ana/profile.yaml/x",
    ])
    func pathsWithoutADriver(path: String) {
        #expect(MergeKind.forPath(path) == nil)
    }

    @Test func kindsAreTheDriverNames() {
        #expect(MergeKind.allCases.map(\.rawValue) == ["progress", "profile", "immutable", "letters", "entry"])
    }

    @Test func theEntryPointDispatchesByKind() {
        let progress = bytes("entry: kjv/mat-5-44\nreviews:\n  - {id: r1, at: 2026-11-01T09:00:00Z, grade: good}\n")
        let more = bytes("entry: kjv/mat-5-44\nreviews:\n  - {id: r2, at: 2026-11-02T09:00:00Z, grade: easy}\n")
        let outcome = SemanticMerge.merge(
            kind: .progress, base: nil, ours: progress, theirs: more, path: "profiles/ana/progress/kjv/mat-5-44.yaml",
            settings: .default)
        #expect(outcome == ProgressMerge.merge(base: nil, ours: progress, theirs: more, settings: .default))
        #expect(mergedText(outcome)?.contains("id: r2") == true)

        let profile = bytes("user: ana\nignored_words: [the]\n")
        #expect(
            SemanticMerge.merge(
                kind: .profile, base: nil, ours: profile, theirs: profile, path: "profiles/ana/profile.yaml",
                settings: .default)
                == .merged(profile))
        #expect(
            SemanticMerge.merge(
                kind: .immutable, base: nil, ours: editedB, theirs: editedA, path: "profiles/ana/saved/x.yaml",
                settings: .default)
                == .merged(editedA))

        guard
            case .conflict(let reason) = SemanticMerge.merge(
                kind: .progress, base: nil, ours: bytes("{"), theirs: progress,
                path: "profiles/ana/progress/kjv/mat-5-44.yaml", settings: .default)
        else {
            Issue.record("expected a conflict")
            return
        }
        #expect(reason.contains("profiles/ana/progress/kjv/mat-5-44.yaml"))
    }
}

@Suite struct MergeKindRulesTests {
    @Test func everyRuleNamesADriverAndEveryDriverHasARule() {
        #expect(Set(MergeRules.rules.map(\.kind)) == Set(MergeKind.allCases.map(\.rawValue)))
        for rule in MergeRules.rules {
            #expect(MergeDrivers.driverName(MergeKind(rawValue: rule.kind)!) == rule.driver)
        }
    }
}
