import Foundation
import RoteModel
import Testing

@testable import RoteSync

/// The merge of deck files (`EntryMerge`, issue #32 item 4): a conflicting edit never
/// breaks an entry, and no value anyone wrote is lost.
@Suite struct EntryMergeTests {
    static let path = "corpus/english-a1/run.yaml"
    static let base = """
        word: run
        pos: verb
        translation: يجري
        alternatives: [يركض, يدير]
        definition:
          en: to move quickly on your feet, faster than walking
          ar: التحرك بسرعة على القدمين أسرع من المشي
        # Irregular: the past is "ran".
        forms: {base: run, third_person: runs, past: ran, past_participle: run, present_participle: running}
        ipa: /rʌn/
        rank: 309
        examples:
          - en: I {run} every morning.
            ar: أنا {أجري} كل صباح.
            form: base
          - en: She {runs} to the bus stop.
            ar: هي {تجري} إلى موقف الحافلة.
            form: third_person
        questions:
          - id: translation
            type: translation_match
            prompt: run
            answer: يجري
            distractors: [يمشي, يجلس, يقف]
          - id: reverse
            type: reverse_translation
            prompt: يجري
            answer: run
            distractors: [walk, sit, swim]

        """

    func edit(_ replacements: [(String, String)]) -> Data {
        bytes(
            replacements.reduce(Self.base) { text, change in
                #expect(text.contains(change.0), "the edit finds \(change.0)")
                return text.replacingOccurrences(of: change.0, with: change.1)
            })
    }

    /// Merges both ways, checks they agree byte for byte and that the result is an entry
    /// with no error, and returns it with its text.
    func mergeBothWays(
        _ ours: Data, _ theirs: Data, base: Data? = bytes(EntryMergeTests.base),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (entry: VocabularyEntry, text: String) {
        let forward = mergedText(EntryMerge.merge(base: base, ours: ours, theirs: theirs, path: Self.path))
        let backward = mergedText(EntryMerge.merge(base: base, ours: theirs, theirs: ours, path: Self.path))
        #expect(forward == backward, "the same bytes whichever side merges", sourceLocation: sourceLocation)
        let text = try #require(forward, sourceLocation: sourceLocation)
        let (entry, diagnostics) = VocabularyEntry.decode(text, path: Self.path)
        #expect(
            !diagnostics.contains { $0.severity == .error }, "\(diagnostics)\n\(text)", sourceLocation: sourceLocation)
        return (try #require(entry, sourceLocation: sourceLocation), text)
    }

    @Test func editsOnDifferentLinesMergeLineByLineAndKeepComments() throws {
        let merged = try mergeBothWays(
            edit([("ipa: /rʌn/", "ipa: /ɹʌn/")]), edit([("translation: يجري", "translation: يركض")]))
        #expect(merged.entry.ipa == "/ɹʌn/")
        #expect(merged.entry.translation == "يركض")
        #expect(merged.text.contains("# Irregular: the past is \"ran\"."), "the line merge keeps the layout")
    }

    @Test func differentFieldsOnOneLineBothWin() throws {
        let merged = try mergeBothWays(
            edit([("past: ran,", "past: RAN,")]), edit([("third_person: runs,", "third_person: RUNS,")]))
        #expect(merged.entry.form("past") == "RAN")
        #expect(merged.entry.form("third_person") == "RUNS")
        #expect(!merged.text.contains("conflicts:"), "no field was changed twice")
    }

    @Test func theSameFieldChangedTwiceKeepsOneAndListsTheOther() throws {
        let merged = try mergeBothWays(
            edit([("translation: يجري", "translation: يعدو"), ("past: ran,", "past: RAN,")]),
            edit([("translation: يجري", "translation: يركض"), ("third_person: runs,", "third_person: RUNS,")]))
        #expect(merged.entry.translation == "يركض", "the value that sorts first stays")
        #expect(merged.entry.form("past") == "RAN")
        #expect(merged.entry.form("third_person") == "RUNS")
        let node = try #require(YAMLSource.parse(merged.text, path: Self.path).0)
        let conflicts = EditConflict.records(in: node)
        #expect(conflicts.map(\.field) == ["translation"])
        #expect(conflicts.first?.kept == .string("يركض"))
        #expect(conflicts.first?.other == .string("يعدو"))
        // Every reader reports it with its line and both values.
        let (_, diagnostics) = VocabularyEntry.decode(merged.text, path: Self.path)
        let warning = try #require(diagnostics.first { $0.message.contains("two devices changed") })
        #expect(warning.line == conflicts.first?.line)
        #expect(warning.message.contains("يركض") && warning.message.contains("يعدو"), "\(warning.message)")
    }

    @Test func examplesAddedOnBothSidesAreAllKeptAndItemsMergeByIdentity() throws {
        let added = { (sentence: String) in
            (
                "    form: third_person\n",
                "    form: third_person\n  - en: \(sentence)\n    ar: مثال {يجري}\n    form: base\n"
            )
        }
        let merged = try mergeBothWays(
            edit([added("We {run} home."), ("answer: يجري", "answer: يركض")]),
            edit([added("You {run} fast."), ("answer: run", "answer: to run")]))
        #expect(merged.entry.examples.map(\.en).count == 4)
        #expect(Set(merged.entry.examples.map(\.en)).isSuperset(of: ["We {run} home.", "You {run} fast."]))
        #expect(!merged.text.contains("conflicts:"), "\(merged.text)")
    }

    @Test func anItemRemovedOnOneSideAndChangedOnTheOtherIsKept() throws {
        let removed = edit([
            ("  - en: She {runs} to the bus stop.\n    ar: هي {تجري} إلى موقف الحافلة.\n    form: third_person\n", "")
        ])
        let changed = edit([
            ("ar: هي {تجري} إلى موقف الحافلة.", "ar: هي {تركض} إلى الحافلة."), ("rank: 309", "rank: 310"),
        ])
        let merged = try mergeBothWays(removed, changed)
        #expect(merged.entry.examples.contains { $0.translated == "هي {تركض} إلى الحافلة." })
    }

    @Test func aSideThatIsNotYAMLIsLeftToConflictMarkers() {
        let outcome = EntryMerge.merge(
            base: bytes(Self.base), ours: edit([("ipa: /rʌn/", "ipa: [unclosed")]),
            theirs: edit([("ipa: /rʌn/", "ipa: /ɹʌn/")]), path: Self.path)
        guard case .conflict(let reason) = outcome else {
            Issue.record("an unreadable side must not be merged field by field: \(outcome)")
            return
        }
        #expect(reason.contains(Self.path))
    }

    // MARK: - Random edits on both sides

    /// Random edits of the entry's fields, list items and questions, on both sides, 300
    /// cases: the merge parses as an entry with no error, is the same in either order, and
    /// keeps every value either side wrote (in its field or in `conflicts:`).
    @Test func randomEditsNeverBreakTheEntryOrLoseAValue() throws {
        let base = try #require(EntryMerge.tree(bytes(Self.base), path: Self.path))
        let baseText = base.renderDocument()
        var generator = SeededGenerator(seed: 324)
        var withConflicts = 0
        for index in 0..<300 {
            let ours = Self.randomlyEdited(base, &generator, side: "a")
            let theirs = Self.randomlyEdited(base, &generator, side: "b")
            let merged = try mergeBothWays(
                bytes(ours.renderDocument()), bytes(theirs.renderDocument()), base: bytes(baseText))
            let kept = Self.leaves(try #require(EntryMerge.tree(bytes(merged.text), path: Self.path)))
            if merged.text.contains("\nconflicts:\n") { withConflicts += 1 }
            for side in [ours, theirs] {
                let written = Self.leaves(side).subtracting(Self.leaves(base))
                #expect(written.isSubset(of: kept), "case \(index): lost \(written.subtracting(kept))\n\(merged.text)")
            }
        }
        // The cases reach real conflicts, and merges without any.
        #expect((30...270).contains(withConflicts), "\(withConflicts) of 300 cases had a conflict")
    }

    static let words = ["يعدو", "يركض", "jog", "sprint", "dash", "رَكَضَ", "ran, quickly", "fast: yes", "[x]"]

    static func randomlyEdited(_ base: YAMLValue, _ generator: inout SeededGenerator, side: String) -> YAMLValue {
        var value = base
        for _ in 0..<generator.int(1...3) {
            let word = generator.pick(words) + " " + side + String(generator.below(3))
            switch generator.below(7) {
            case 0: value = value.setting([generator.pick(["translation", "ipa", "usage_notes"])], to: .string(word))
            case 1: value = value.setting(["definition", generator.pick(["en", "ar"])], to: .string(word))
            case 2:
                value = value.setting(
                    ["forms", generator.pick(["past_participle", "present_participle"])], to: .string(word))
            case 3:
                value = value.changingList("examples") { items in
                    items + [
                        .map(
                            [
                                ("en", .string(word + " {run}")), ("ar", .string(word + " {أجري}")),
                                ("form", .raw("base")),
                            ], flow: false)
                    ]
                }
            case 4:
                let at = generator.below(2)
                value = value.changingList("examples") { items in
                    var items = items
                    if generator.chance(0.5), at < items.count {
                        items.remove(at: at)
                    } else if at < items.count {
                        items[at] = items[at].setting(["ar"], to: .string(word + " {أجري}"))
                    }
                    return items
                }
            case 5:
                value = value.changingList("alternatives") { items in
                    generator.chance(0.5) || items.isEmpty ? items + [.string(word)] : Array(items.dropFirst())
                }
            default:
                let at = generator.below(2)
                value = value.changingList("questions") { items in
                    var items = items
                    if at < items.count { items[at] = items[at].setting(["answer"], to: .string(word)) }
                    return items
                }
            }
        }
        return value
    }

    /// Every scalar's text in a value.
    static func leaves(_ value: YAMLValue) -> Set<String> {
        switch value {
        case .string(let text), .raw(let text): [text]
        case .null: []
        case .list(let items, _): items.reduce(into: []) { $0.formUnion(leaves($1)) }
        case .map(let pairs, _): pairs.reduce(into: []) { $0.formUnion(leaves($1.1)) }
        }
    }
}

extension VocabularyEntry {
    fileprivate func form(_ name: String) -> String? { forms.first { $0.0 == name }?.1 }
}

extension YAMLValue {
    /// The value with the field at `path` set (added at the end when missing).
    fileprivate func setting(_ path: [String], to newValue: YAMLValue) -> YAMLValue {
        guard let key = path.first else { return newValue }
        guard case .map(var pairs, let flow) = self else { return self }
        if let index = pairs.firstIndex(where: { $0.0 == key }) {
            pairs[index].1 = pairs[index].1.setting(Array(path.dropFirst()), to: newValue)
        } else if path.count == 1 {
            pairs.append((key, newValue))
        }
        return .map(pairs, flow: flow)
    }

    fileprivate func changingList(_ key: String, _ change: ([YAMLValue]) -> [YAMLValue]) -> YAMLValue {
        guard case .map(var pairs, let flow) = self, let index = pairs.firstIndex(where: { $0.0 == key }),
            case .list(let items, _) = pairs[index].1
        else { return self }
        pairs[index].1 = .flowIfPlain(change(items))
        return .map(pairs, flow: flow)
    }
}
