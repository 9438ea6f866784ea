import Foundation
import RoteModel
import RoteStore
import TestSupport
import Testing

/// Issue #22's rules through the `rote` binary: studying a domain or a skill, passages by tag,
/// skill progress and question statistics, leeches, tracing settings, local times.
@Suite struct SeedRulesCLITests {
    static var binary: String { Checkout.productsDirectory.appending(path: "rote").path }

    let directory = TemporaryDirectory()
    var lib: URL { directory.url }

    init() async {
        await FixtureLibrary.write(
            into: directory,
            overrides: [
                "corpus/verses/joh-11-35.yaml":
                    "reference: John 11:35\ntext: Jesus wept.\ntags: [grief, compassion]\norder: 1\n",
                "corpus/verses/1jo-4-8.yaml": "reference: 1 John 4:8\ntext: God is love.\ntags: [love]\norder: 2\n",
                "corpus/maths/arithmetic/subtraction/skill.yaml":
                    "id: 55555555-5555-4555-8555-555555555555\ntitle: Subtraction\npublished: true\n",
                "corpus/maths/arithmetic/subtraction/five_minus_two.yaml": """
                id: 66666666-6666-4666-8666-666666666666
                type: mcq_single
                payload: {prompt: What is 5 - 2?, choices: ["3", "7"], solution_index: 0}
                explanation: Five take away two leaves three.
                published: true

                """,
            ])
    }

    @discardableResult
    func rote(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) async -> Shell.Output {
        await Shell.run(
            Self.binary, ["-C", lib.path, "--user", "ana"] + arguments, input: input,
            environment: ["NO_COLOR": "1"].merging(environment) { $1 })
    }

    func sessions() throws -> [SessionFile] {
        try LibraryLoader().load(lib).sessions["ana"] ?? []
    }

    @Test func aDomainOrASkillIsStudiedAlone() async throws {
        let domain = await rote(["study", "maths/arithmetic", "--plan", "--list"])
        #expect(domain.status == 0, "\(domain.stderr)")
        #expect(
            domain.stdout.contains("maths/arithmetic/addition/two_plus_two")
                && domain.stdout.contains("maths/arithmetic/subtraction/five_minus_two"))
        let skill = await rote(["study", "maths/arithmetic/subtraction", "--plan", "--list"])
        #expect(
            skill.stdout.contains("1 new") && skill.stdout.contains("five_minus_two")
                && !skill.stdout.contains("two_plus_two"), "\(skill.stdout)")
        #expect(await !rote(["study", "words", "--plan", "--list"]).stdout.contains("maths/"))

        let missing = await rote(["study", "maths/arithmetic/division", "--plan"])
        #expect(missing.status != 0)
        #expect(
            missing.stderr.contains(
                "no domain or skill maths/arithmetic/division; try maths/arithmetic/addition, maths/arithmetic/subtraction"
            ), "\(missing.stderr)")

        // A session about one skill records the skill and its score (seed 001's sessions).
        let studied = await rote(["study", "maths/arithmetic/subtraction"], input: "1\n")
        #expect(studied.status == 0, "\(studied.stderr)\n\(studied.stdout)")
        let session = try #require(try sessions().first)
        #expect(session.skill == "maths/arithmetic/subtraction")
        #expect(session.attempts.map(\.entry) == ["maths/arithmetic/subtraction/five_minus_two"])
        #expect(session.score == (session.attempts[0].correct ? 1 : 0))
        #expect(session.kind == .learning)
    }

    @Test func aSessionOfAWholeDeckRecordsNoSkill() async throws {
        _ = await rote(["study", "maths", "--new", "1"], input: "1\n")
        let session = try #require(try sessions().first)
        #expect(session.skill == nil && session.score != nil)
    }

    @Test func passagesAreStudiedByTag() async throws {
        let love = await rote(["study", "verses", "--tag", "love", "--plan", "--list"])
        #expect(love.status == 0, "\(love.stderr)")
        #expect(love.stdout.contains("verses/1jo-4-8") && !love.stdout.contains("verses/joh-11-35"), "\(love.stdout)")
        let either = await rote(["study", "--tag", "LOVE", "--tag", "grief", "--plan", "--list"])
        #expect(
            either.stdout.contains("verses/1jo-4-8") && either.stdout.contains("verses/joh-11-35")
                && !either.stdout.contains("words/"), "\(either.stdout)")
        let none = await rote(["study", "verses", "--tag", "joy", "--plan"])
        #expect(none.status != 0)
        #expect(none.stderr.contains("no passage tagged joy; tags are: compassion, grief, love"), "\(none.stderr)")
    }

    @Test func skillProgressAndQuestionStatisticsAreDerivedFromTheHistory() async throws {
        // One wrong answer to 2 + 2 (a wrong choice), then a right one to 5 - 2.
        directory.write(
            "profiles/ana/sessions/2026/11/s1.yaml",
            """
            id: s1
            user: ana
            type: learning
            started_at: 2026-11-20T09:00:00Z
            ended_at: 2026-11-20T09:01:00Z
            decks: [maths]
            counts: {again: 1, hard: 0, good: 1, easy: 0, new: 2}
            attempts:
              - {entry: maths/arithmetic/addition/two_plus_two, question: mcq_single, answer: "5", correct: false, at: 2026-11-20T09:00:10Z, ms: 3000}
              - {entry: maths/arithmetic/subtraction/five_minus_two, question: mcq_single, answer: "3", correct: true, at: 2026-11-20T09:00:20Z, ms: 2000}

            """)
        directory.write(
            "profiles/ana/progress/maths/arithmetic/addition/two_plus_two.yaml",
            """
            entry: maths/arithmetic/addition/two_plus_two
            status: active
            reviews:
              - {id: r1, at: 2026-11-20T09:00:10Z, grade: again, ms: 3000}

            """)
        directory.write(
            "profiles/ana/progress/maths/arithmetic/subtraction/five_minus_two.yaml",
            """
            entry: maths/arithmetic/subtraction/five_minus_two
            status: active
            reviews:
              - {id: r2, at: 2026-11-20T09:00:20Z, grade: good, ms: 2000}

            """)
        await Shell.run("git", ["add", "-A"], in: lib)
        await Shell.run(
            "git", ["-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-qm", "history"], in: lib)

        let stats = await rote(["stats"], environment: ["TZ": "UTC"])
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(
            stats.stdout.contains(
                "maths/arithmetic/addition: 1 attempt · 0 right (0%) · last 2026-11-20 09:00 +00:00 · mastery starting (0) over 2 questions"
            ), "\(stats.stdout)")
        #expect(stats.stdout.contains("maths/arithmetic/subtraction: 1 attempt · 1 right (100%)"), "\(stats.stdout)")

        let skill = await rote(["show", "maths/arithmetic/addition"], environment: ["TZ": "UTC"])
        #expect(skill.status == 0, "\(skill.stderr)")
        #expect(skill.stdout.contains("maths/arithmetic/addition  (skill)") && skill.stdout.contains("Addition"))
        #expect(skill.stdout.contains("1 attempt · 0 right (0%)"), "\(skill.stdout)")
        #expect(skill.stdout.contains("progress 0%: 0 of 2 published questions last answered right"), "\(skill.stdout)")
        let domain = await rote(["show", "maths/arithmetic"]).stdout
        #expect(
            domain.contains("addition — Addition") && domain.contains("subtraction — Subtraction")
                && domain.contains("progress 100%: 1 of 1"), "\(domain)")

        let questions = await rote(["stats", "--questions", "--deck", "maths"])
        #expect(questions.status == 0, "\(questions.stderr)")
        let lines = questions.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.dropFirst().first == "  maths/arithmetic/addition/two_plus_two mcq_single  used 1 time · 0% right",
            "worst first: \(lines)")
        #expect(lines.contains("  maths/arithmetic/subtraction/five_minus_two mcq_single  used 1 time · 100% right"))
        #expect(
            await rote(["show", "maths/arithmetic/addition/two_plus_two"]).stdout.contains(
                "mcq_single  used 1 time · 0% right"))
        #expect(await rote(["stats", "--questions", "--deck", "nope"]).status != 0)
    }

    /// words/run learned, then forgotten and relearned `lapses` times, committed.
    func commitRun(lapses: Int) async {
        var reviews = [
            "  - {id: l0, at: 2026-10-01T09:00:00Z, grade: good}",
            "  - {id: l1, at: 2026-10-01T09:10:00Z, grade: good}",
        ]
        for lapse in 0..<lapses {
            reviews.append("  - {id: a\(lapse), at: 2026-10-\(10 + 2 * lapse)T09:00:00Z, grade: again}")
            reviews.append("  - {id: g\(lapse), at: 2026-10-\(10 + 2 * lapse)T09:10:00Z, grade: good}")
        }
        directory.write(
            "profiles/ana/progress/words/run.yaml",
            """
            entry: words/run
            status: active
            state: {phase: review, stability: 1.0, difficulty: 9.0, due: 2026-10-25T09:00:00Z, reps: \(2 + 2 * lapses), lapses: \(lapses)}
            reviews:
            \(reviews.joined(separator: "\n"))

            """)
        await Shell.run("git", ["add", "-A"], in: lib)
        await Shell.run(
            "git", ["-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-qm", "lapses"], in: lib)
    }

    /// 7 lapses in the file; forgetting once more makes 8, a leech: study says so and one
    /// `suspend` takes it out; show and stats name it.
    @Test func aLeechIsAnnouncedShownAndSuspendedInOneKey() async throws {
        await commitRun(lapses: 7)
        #expect(await !rote(["show", "words/run"]).stdout.contains("leech: forgotten"), "7 lapses are not yet a leech")

        let study = await rote(["study", "words", "--new", "0", "--typed"], input: "wrong\nwrong\nsuspend\n")
        #expect(study.status == 0, "\(study.stderr)\n\(study.stdout)")
        #expect(study.stdout.contains("Leech: forgotten 8 times."), "\(study.stdout)")
        #expect(study.stdout.contains("Suspended words/run"))
        let text = try #require(directory.read("profiles/ana/progress/words/run.yaml"))
        let file = try #require(ProgressFile.decode(text, path: "run.yaml").0)
        #expect(file.status == .suspended && file.state?.lapses == 8)
        #expect(await rote(["show", "words/run"]).stdout.contains("leech: forgotten 8 times"))
        _ = await rote(["activate", "words/run"])
        #expect(
            await rote(["stats"]).stdout.contains(
                "leeches (forgotten as often as their deck's leech threshold; rewrite them or `rote suspend ID`; `rote list --leeches` lists suspended ones too):\n  words/run"
            ))
    }

    /// Issue #37 item 4: with `leech_threshold: 3` and `leech_action: suspend` in deck.yaml, the
    /// third lapse suspends the entry on its own; study says so, `rote list --leeches` and
    /// `rote show` name it, and the scheduling line says where the rule came from.
    @Test func aDecksLeechRuleSuspendsOnTheLapseThatCrossesIt() async throws {
        directory.write(
            "corpus/words/deck.yaml",
            "kind: vocabulary\ntitle: Words\nversion: 1.0.0\norder: rank\nleech_threshold: 3\nleech_action: suspend\n")
        await commitRun(lapses: 2)
        #expect(await rote(["list", "--leeches"]).stdout.hasPrefix("No leeches"))

        let study = await rote(["study", "words", "--new", "0", "--typed"], input: "wrong\nwrong\n\n")
        #expect(study.status == 0, "\(study.stderr)\n\(study.stdout)")
        #expect(study.stdout.contains("Leech: forgotten 3 times, so it is suspended"), "\(study.stdout)")
        let text = try #require(directory.read("profiles/ana/progress/words/run.yaml"))
        let file = try #require(ProgressFile.decode(text, path: "run.yaml").0)
        #expect(file.status == .suspended && file.state?.lapses == 3)
        let leeches = await rote(["list", "--leeches"])
        #expect(leeches.stdout.contains("words/run  3 lapses, suspended"), "\(leeches.stdout)")
        let shown = await rote(["show", "words/run"]).stdout
        #expect(shown.contains("leech: forgotten 3 times, suspended"), "\(shown)")
        #expect(shown.contains("leech at 3 lapses, then suspended (the deck's)"), "\(shown)")
        #expect(await rote(["stats"]).stdout.contains("  words: retention 0.90 (default)"))
    }

    /// Seed 001's JSON out and back in: a skills deck exported, removed and imported again
    /// is the deck it was, UUIDs, slugs, payloads and publish flags alike.
    @Test func aSkillsDeckRoundTripsThroughTheSeedJSON() async throws {
        let before = try LibraryLoader().load(lib)
        let out = lib.appending(path: "maths.json").path
        let exported = await rote(["export", "--deck", "maths", "--format", "json", "--out", out])
        #expect(exported.status == 0, "\(exported.stderr)")
        let json = try #require(FileManager.default.contents(atPath: out))
        guard case let .object(top)? = try? JSONValue.parse(json).get(), case let .array(questions)? = top["questions"]
        else {
            Issue.record("not the seed's shape")
            return
        }
        #expect(questions.count == 3 && top["domains"] != nil && top["skills"] != nil)

        await Shell.run("git", ["rm", "-rq", "corpus/maths"], in: lib)
        await Shell.run(
            "git", ["-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-qm", "no maths"], in: lib)
        let imported = await rote(["import", out, "--deck", "maths"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("1 domain, 2 skills, 3 questions (6 new"), "\(imported.stdout)")
        #expect(!imported.stderr.contains("warning") && !imported.stderr.contains("error"), "\(imported.stderr)")
        let after = try LibraryLoader().load(lib)
        #expect(after.errors.isEmpty, "\(after.errors)")
        for (key, domain) in before.domains { #expect(after.domains[key]?.render() == domain.render(), "\(key)") }
        for (key, skill) in before.skills { #expect(after.skills[key]?.render() == skill.render(), "\(key)") }
        let questionsBefore = before.entries.filter { $0.deck == "maths" }
        #expect(questionsBefore.count == 3)
        for entry in questionsBefore {
            #expect(after.entries.first { $0.id == entry.id }?.content == entry.content, "\(entry.id)")
        }
        #expect(
            await rote(["export", "--deck", "words", "--format", "json"]).stderr.contains(
                "is a vocabulary deck; the seed JSON format holds skills decks"))
    }

    /// The learner export holds letter attempts (JSON and CSV) and, in CSV as in JSON, the
    /// ladder positions and reflections of passages, and each session's skill and score.
    @Test func theLearnerExportHoldsLettersLaddersReflectionsAndScores() async throws {
        let attempt =
            #"{"letter": "l", "mode": "memory", "score": 86, "stroke_order": 90, "direction": 80, "shape": 85, "start": 90, "tips": ["stem-down"], "hint_used": false, "started_at": "2026-11-21T10:00:00Z", "completed_at": "2026-11-21T10:00:05Z", "drawing": [[[50, 10, 0], [50.5, 80, 400]]]}"#
        #expect(await rote(["letters", "record", "-"], input: attempt).status == 0)
        directory.write(
            "profiles/ana/progress/verses/joh-11-35.yaml",
            """
            entry: verses/joh-11-35
            status: active
            ladder: {level: cloze2, covered: [0], attempts: 5, at: 2026-11-20T09:00:00Z}
            reflection: {text: "He wept, with them.", at: 2026-11-19T09:00:00Z}

            """)
        _ = await rote(["study", "maths/arithmetic/subtraction"], input: "1\n")

        let json = lib.appending(path: "out-json")
        #expect(await rote(["export", "--format", "json", "--out", json.path]).status == 0)
        let document = try #require(directory.read("out-json/ana.json"))
        #expect(
            document.contains("\"letters\": [") && document.contains("\"score\": 86")
                && document.contains("\"drawing\""), "\(document.prefix(600))")

        let csv = lib.appending(path: "out-csv")
        let written = await rote(["export", "--format", "csv", "--out", csv.path])
        #expect(written.status == 0, "\(written.stderr)")
        let letters = try #require(directory.read("out-csv/letter_attempts.csv"))
        #expect(
            letters.hasPrefix(
                "letter,id,mode,score,stroke_order,direction,shape,start,tips,hint_used,started_at,completed_at,duration_ms,drawing"
            ))
        #expect(
            letters.contains("letters/l,")
                && letters.contains(
                    ",memory,86,90,80,85,90,stem-down,false,2026-11-21T10:00:00Z,2026-11-21T10:00:05Z,5000,")
                && letters.contains("\"[[[50, 10, 0], [50.5, 80, 400]]]\""), "\(letters)")
        let progress = try #require(directory.read("out-csv/progress.csv"))
        #expect(
            progress.split(separator: "\n").first?.hasSuffix(
                ",ladder_level,ladder_covered,ladder_attempts,ladder_at,reflection,reflection_at") == true)
        #expect(
            progress.contains(",cloze2,0,5,2026-11-20T09:00:00Z,\"He wept, with them.\",2026-11-19T09:00:00Z"),
            "\(progress)")
        let sessions = try #require(directory.read("out-csv/sessions.csv"))
        #expect(sessions.split(separator: "\n").first?.hasSuffix(",skill,score") == true)
        #expect(sessions.contains(",maths/arithmetic/subtraction,"), "\(sessions)")
    }

    /// Seed 000: after 7 days without a sync, study and stats say so, once a day; a library
    /// without a remote has nothing to sync with.
    @Test func aSyncOlderThanAWeekIsMentionedOnceADay() async throws {
        #expect(await !rote(["study", "--plan"]).stderr.contains("sync"), "no remote, no reminder")
        await Shell.run("git", ["remote", "add", "origin", lib.appending(path: "elsewhere.git").path], in: lib)
        #expect(await rote(["study", "--plan"]).stderr.contains("This library has not been synced yet"))
        #expect(await !rote(["stats"]).stderr.contains("synced"), "once a day")

        func fetched(daysAgo: Double) throws {
            let head = lib.appending(path: ".git/FETCH_HEAD")
            try Data().write(to: head)
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(-daysAgo * 86_400)], ofItemAtPath: head.path)
            directory.remove(".git/rote/reminders")
        }
        try fetched(daysAgo: 8)
        let stale = await rote(["stats"])
        #expect(stale.stderr.contains("Last sync 8 days ago"), "\(stale.stderr)")
        #expect(stale.stdout.contains("due today"), "stats go on: \(stale.stdout)")
        #expect(await !rote(["study", "--plan"]).stderr.contains("Last sync"))
        try fetched(daysAgo: 2)
        #expect(await !rote(["study", "--plan"]).stderr.contains("sync"))
    }

    /// `rote init` records the learner's languages (flags; asked only at a terminal), and
    /// they decide the prompt side: an English speaker learning english-a1's Arabic is asked
    /// the Arabic first.
    @Test func initRecordsTheLanguagesAndTheyDecideThePromptSide() async throws {
        let made = await Shell.run(
            Self.binary, ["init", "en-ar", "--user", "eve", "--native-language", "en", "--target-language", "ar"],
            in: lib)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("languages: native en, learning ar"))
        let text = try #require(directory.read("en-ar/profiles/eve/profile.yaml"))
        let profile = try #require(Profile.decode(text, path: "p").0)
        #expect(profile.settings.nativeLanguage == "en" && profile.settings.targetLanguage == "ar")
        func firstQuestion(_ library: String) async -> String {
            let output = await Shell.run(
                Self.binary, ["-C", library, "study", "english-a1", "--new", "1", "--typed"], in: lib, input: "quit\n"
            ).stdout
            return output.split(separator: "\n").first { $0.hasPrefix("Translate") }.map(String.init) ?? output
        }
        #expect(await firstQuestion("en-ar").hasPrefix("Translate back: "), "the Arabic is the prompt")
        #expect(
            await Shell.run(Self.binary, ["init", "plain", "--user", "bo"], in: lib).status == 0,
            "without a terminal nothing is asked")
        #expect(await firstQuestion("plain").hasPrefix("Translate: "), "the deck's own direction")
        let bad = await Shell.run(Self.binary, ["init", "bad", "--native-language", "Arabic"], in: lib)
        #expect(bad.status != 0 && bad.stderr.contains("--native-language 'Arabic' is not a language code"))
    }

    @Test func tracingSettingsAreKeptInTheProfile() async throws {
        #expect(await rote(["letters", "settings"]).stdout.contains("tracing for ana: right-handed · haptics off"))
        let set = await rote(["letters", "settings", "--left-handed", "--haptics"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("left-handed · haptics on"))
        let profileText = try #require(directory.read("profiles/ana/profile.yaml"))
        let profile = try #require(Profile.decode(profileText, path: "p").0)
        #expect(profile.settings.leftHanded == true && profile.settings.haptics == true)
        #expect(
            await Shell.run("git", ["log", "-1", "--format=%s"], in: lib).stdout.hasPrefix(
                "Settings: left-handed, haptics on for ana"))
        #expect(await Shell.run("git", ["status", "--porcelain"], in: lib).stdout.isEmpty)
        #expect(await rote(["letters", "settings", "--right-handed"]).stdout.contains("right-handed · haptics on"))
        #expect(await rote(["letters", "settings", "--left-handed", "--right-handed"]).status != 0)
    }

    /// Files keep UTC; output is in the learner's zone.
    @Test func timesAreShownInTheLocalTimeZone() async throws {
        let tokyo = await rote(["show", "words/run"], environment: ["TZ": "Asia/Tokyo"]).stdout
        #expect(tokyo.contains("2026-11-01 18:00 +09:00  good"), "\(tokyo)")
        #expect(tokyo.contains("due 2026-11-05 18:00 +09:00"))
        // Seed 000's per-word confidence (0–100) and mastery level.
        #expect(tokyo.contains("  confidence ") && tokyo.contains("/100 · mastery "), "\(tokyo)")
        let utc = await rote(["show", "words/run"], environment: ["TZ": "UTC"]).stdout
        #expect(utc.contains("2026-11-01 09:00 +00:00  good"))
        #expect((directory.read("profiles/ana/progress/words/run.yaml") ?? "").contains("at: 2026-11-01T09:00:00Z"))
    }
}
