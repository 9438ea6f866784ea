import Foundation
import RoteModel
import RoteSync
import Testing

/// Hand-written cases of the profile merge.
@Suite struct ProfileMergeTests {
    static let base = """
        user: ana
        updated_at: 2026-11-20T10:00:00Z
        settings:
          daily_goal: 20
          new_per_day: 8
          fuzz: true
        interests:
          family: 0.6
          school: 0.4
        ignored_words: [of, the]
        consent:
          reflections: {granted: true, at: 2026-11-01T09:00:00Z, version: "1"}

        """

    /// The base with text replaced, for one side's edits.
    func edit(_ replacements: [(String, String)]) -> Data {
        bytes(replacements.reduce(Self.base) { $0.replacingOccurrences(of: $1.0, with: $1.1) })
    }

    func at(_ hour: Int) -> (String, String) {
        ("updated_at: 2026-11-20T10:00:00Z", "updated_at: 2026-11-20T\(hour):00:00Z")
    }

    func mergeBothWays(
        base: Data? = bytes(Self.base), _ ours: Data, _ theirs: Data, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Profile {
        let forward = mergedText(ProfileMerge.merge(base: base, ours: ours, theirs: theirs))
        let backward = mergedText(ProfileMerge.merge(base: base, ours: theirs, theirs: ours))
        #expect(forward == backward, sourceLocation: sourceLocation)
        let text = try #require(forward, sourceLocation: sourceLocation)
        return try #require(Profile.decode(text, path: "merged.yaml").0, sourceLocation: sourceLocation)
    }

    @Test func keysChangedOnDifferentSidesAreBothKept() throws {
        let merged = try mergeBothWays(
            edit([at(11), ("daily_goal: 20", "daily_goal: 30")]),
            edit([at(12), ("new_per_day: 8", "new_per_day: 12"), ("fuzz: true", "fuzz: false")]))
        #expect(merged.settings.dailyGoal == 30)
        #expect(merged.settings.newPerDay == 12)
        #expect(merged.settings.fuzz == false)
        #expect(merged.updatedAt == Timestamp.parse("2026-11-20T12:00:00Z"))
    }

    @Test func aKeyChangedOnBothSidesTakesTheLaterUpdatedAt() throws {
        let merged = try mergeBothWays(
            edit([at(14), ("daily_goal: 20", "daily_goal: 30")]),
            edit([at(12), ("daily_goal: 20", "daily_goal: 10"), ("new_per_day: 8", "new_per_day: 9")]))
        #expect(merged.settings.dailyGoal == 30)
        #expect(merged.settings.newPerDay == 9)
    }

    /// A key removed on one side and changed on the other is a both-sides change like any.
    @Test func removingAKeyIsAChange() throws {
        let merged = try mergeBothWays(
            edit([at(14), ("  fuzz: true\n", "")]),
            edit([at(12), ("fuzz: true", "fuzz: false")]))
        #expect(merged.settings.fuzz == nil)
        let onlyRemoved = try mergeBothWays(edit([at(11), ("  fuzz: true\n", "")]), edit([at(12)]))
        #expect(onlyRemoved.settings.fuzz == nil)
    }

    /// Equal `updated_at`: decided by the values, the same whichever side is ours.
    @Test func anUpdatedAtTieIsDecidedByTheValues() throws {
        let merged = try mergeBothWays(
            edit([at(12), ("daily_goal: 20", "daily_goal: 25")]),
            edit([at(12), ("daily_goal: 20", "daily_goal: 30")]))
        #expect(merged.settings.dailyGoal == 30)
    }

    @Test func setsKeepAddsAndRemovesFromBothSides() throws {
        let merged = try mergeBothWays(
            edit([
                at(11), ("ignored_words: [of, the]", "ignored_words: [a, the]"), ("  family: 0.6\n", "  music: 0.3\n"),
            ]),
            edit([
                at(12), ("ignored_words: [of, the]", "ignored_words: [is, of]"),
                ("  school: 0.4\n", "  school: 0.4\n  food: 0.5\n"),
            ]))
        #expect(merged.ignoredWords == ["a", "is"])
        #expect(merged.interests.map(\.0) == ["food", "music", "school"])
        #expect(merged.interests.map(\.1) == [0.5, 0.3, 0.4])
    }

    /// `new_shares` merges as interests do: each deck's share key-wise, decks as a set, and a
    /// merge never drops a share one device set.
    @Test func newSharesSetOnTwoDevicesAreBothKept() throws {
        let merged = try mergeBothWays(
            edit([at(11), ("ignored_words:", "new_shares:\n  kjv: 0\nignored_words:")]),
            edit([at(12), ("ignored_words:", "new_shares:\n  english-a1: 2\nignored_words:")]))
        #expect(merged.newShares.map(\.0) == ["english-a1", "kjv"])
        #expect(merged.newShare(of: "kjv") == 0 && merged.newShare(of: "english-a1") == 2)
        #expect(merged.newShare(of: "math") == 1, "a deck not named has the share 1")
    }

    /// Removing a topic wins over re-weighting it: membership follows the set rule first.
    @Test func aTopicRemovedOnOneSideAndReweightedOnTheOtherIsRemoved() throws {
        let merged = try mergeBothWays(
            edit([at(11), ("  family: 0.6\n", "")]),
            edit([at(12), ("family: 0.6", "family: 0.9")]))
        #expect(merged.interests.map(\.0) == ["school"])
    }

    @Test func consentIsMergedPerTopic() throws {
        let merged = try mergeBothWays(
            edit([at(11), ("reflections: {granted: true", "reflections: {granted: false")]),
            edit([
                at(12),
                (
                    "  reflections:",
                    "  audio: {granted: true, at: 2026-11-20T12:00:00Z, version: \"2\"}\n  reflections:"
                ),
            ]))
        #expect(merged.consent.map(\.topic) == ["audio", "reflections"])
        #expect(merged.consent.map(\.granted) == [true, false])
    }

    /// Both devices created the profile: every differing key is a both-sides change.
    @Test func bothSidesAddingTheFile() throws {
        let ours = bytes(
            "user: ana\nupdated_at: 2026-11-20T09:00:00Z\nsettings: {daily_goal: 10, haptics: true}\nignored_words: [the]\n"
        )
        let theirs = bytes(
            "user: ana\nupdated_at: 2026-11-20T10:00:00Z\nsettings: {daily_goal: 15}\nignored_words: [a]\n")
        let merged = try mergeBothWays(base: nil, ours, theirs)
        #expect(merged.settings.dailyGoal == 15)
        #expect(merged.settings.haptics == true)
        #expect(merged.ignoredWords == ["a", "the"])
    }

    @Test func anUnreadableBaseCountsAsEmpty() throws {
        let merged = try mergeBothWays(
            base: bytes("user: [broken"), edit([at(11), ("daily_goal: 20", "daily_goal: 30")]), edit([at(12)]))
        #expect(merged.settings.dailyGoal == 20)
        #expect(merged.ignoredWords == ["of", "the"])
    }

    @Test(arguments: [
        "user: [broken\n",
        "settings:\n  desired_retention: 5\nuser: ana\n",  // decodes, but drops the bad setting
        "name: no user\n",
    ])
    func aSideThatDoesNotParseIsAConflict(broken: String) {
        for outcome in [
            ProfileMerge.merge(base: bytes(Self.base), ours: bytes(broken), theirs: bytes(Self.base)),
            ProfileMerge.merge(base: bytes(Self.base), ours: bytes(Self.base), theirs: bytes(broken)),
        ] {
            guard case .conflict(let reason) = outcome else {
                Issue.record("expected a conflict, got \(outcome)")
                continue
            }
            #expect(reason.contains("profile.yaml"))
        }
    }

    /// Topics come out sorted whatever order a side wrote them in, so every device writes the
    /// same bytes.
    @Test func topicsComeOutSorted() throws {
        let unsorted = edit([("  family: 0.6\n  school: 0.4\n", "  school: 0.4\n  family: 0.6\n")])
        let merged = try #require(mergedText(ProfileMerge.merge(base: nil, ours: unsorted, theirs: unsorted)))
        #expect(merged.contains("interests:\n  family: 0.6\n  school: 0.4\n"))
    }

    @Test func seenDeckVersionsMergeKeyByKey() throws {
        let base = Self.base + "deck_versions:\n  alphabet: 1.0.0\n"
        let ours = bytes(
            base.replacingOccurrences(of: "updated_at: 2026-11-20T10:00:00Z", with: "updated_at: 2026-11-20T11:00:00Z")
                .replacingOccurrences(of: "  alphabet: 1.0.0\n", with: "  alphabet: 1.1.0\n  kjv: 1.0.0\n"))
        let theirs = bytes(
            base.replacingOccurrences(of: "updated_at: 2026-11-20T10:00:00Z", with: "updated_at: 2026-11-20T12:00:00Z")
                .replacingOccurrences(of: "  alphabet: 1.0.0\n", with: "  alphabet: 1.2.0\n  math: 2.0.0\n"))
        let merged = try mergeBothWays(base: bytes(base), ours, theirs)
        #expect(merged.deckVersions.map(\.0) == ["alphabet", "kjv", "math"], "decks recorded on either side are kept")
        #expect(merged.seenVersion(of: "alphabet") == "1.2.0", "both changed it: the later updated_at wins")
    }

    /// Issue #37 item 1: a learner's choices for one deck merge key by key, decks as a set,
    /// and the leech keys of `settings` merge like any other.
    @Test func deckSettingsMergeKeyByKey() throws {
        let base = Self.base + "deck_settings:\n  med: {desired_retention: 0.9, leech_threshold: 6}\n"
        let ours = bytes(
            base.replacingOccurrences(of: "updated_at: 2026-11-20T10:00:00Z", with: "updated_at: 2026-11-20T11:00:00Z")
                .replacingOccurrences(of: "  fuzz: true\n", with: "  fuzz: true\n  leech_action: suspend\n")
                .replacingOccurrences(
                    of: "  med: {desired_retention: 0.9, leech_threshold: 6}\n",
                    with: "  med: {desired_retention: 0.95, leech_threshold: 6}\n  trivia: {desired_retention: 0.8}\n"))
        let theirs = bytes(
            base.replacingOccurrences(of: "updated_at: 2026-11-20T10:00:00Z", with: "updated_at: 2026-11-20T12:00:00Z")
                .replacingOccurrences(
                    of: "  med: {desired_retention: 0.9, leech_threshold: 6}\n",
                    with: "  med: {desired_retention: 0.9, leech_threshold: 4}\n"))
        let merged = try mergeBothWays(base: bytes(base), ours, theirs)
        #expect(merged.deckSettings.map(\.0) == ["med", "trivia"])
        #expect(
            merged.schedulingChoices(for: "med") == SchedulingChoices(desiredRetention: 0.95, leechThreshold: 4),
            "each side changed another key of the same deck: both kept")
        #expect(merged.settings.scheduling.leechAction == .suspend)
    }

    /// Every key of `settings` survives a merge in which only the other side changed
    /// something else; a key the merge forgot would be dropped here.
    @Test func everySettingSurvivesAMergeOfAnUnrelatedChange() throws {
        let all = """
            user: ana
            updated_at: 2026-11-20T10:00:00Z
            settings:
              daily_goal: 20
              new_per_day: 8
              reviews_per_day: 150
              working_set: 5
              desired_retention: 0.92
              maximum_interval: 400
              fuzz: false
              load_balance: true
              easy_days: {sunday: 0.25, saturday: 0.5}
              typed_answers: true
              autoplay_audio: true
              native_language: ar
              target_language: en
              left_handed: true
              haptics: false
              last_letter: alphabet/b
              learning_steps: [1, 10]
              relearning_steps: [5]
              leech_threshold: 5
              leech_action: suspend

            """
        let theirs = all.replacingOccurrences(of: "daily_goal: 20", with: "daily_goal: 30")
        let merged = try mergeBothWays(base: bytes(all), bytes(all), bytes(theirs))
        let expected = try #require(Profile.decode(bytes(theirs), path: "profile.yaml").0)
        #expect(merged.settings == expected.settings)
        #expect(Profile.Settings.keys.allSatisfy { all.contains("  \($0):") || $0 == "fsrs_parameters" })
    }
}
