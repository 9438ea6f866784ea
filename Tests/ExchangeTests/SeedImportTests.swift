import Foundation
import RoteModel
import RoteStore
import TestSupport
import Testing

@testable import Exchange

/// The skills seed's JSON import, planned against the fixture library (nothing written).
@Suite struct SeedImportTests {
    static let samples = try! Data(
        contentsOf: Checkout.root.appending(path: "Tests/ExchangeTests/Fixtures/seed-001-samples.json"))

    static func library() async throws -> (TemporaryDirectory, LoadedLibrary) {
        let directory = TemporaryDirectory("rote-seed")
        await FixtureLibrary.write(into: directory, git: false)
        return (directory, try LibraryLoader().load(directory.url))
    }

    func issues(_ plan: ImportPlan, _ severity: Diagnostic.Severity) -> [String] {
        plan.issues.filter { $0.severity == severity }.map { "\($0.location ?? ""): \($0.message)" }
    }

    @Test func theSeedsOwnSamplesBlockAndNameEveryBadSlug() async throws {
        let (_, library) = try await Self.library()
        let plan = SeedImporter(deck: "algebra", file: "seed.json").plan(Self.samples, library: library)
        #expect(plan.isBlocked)
        #expect(plan.changes.isEmpty)
        let errors = issues(plan, .error)
        #expect(errors.count == 3, "\(errors)")
        #expect(
            errors.contains {
                $0.hasPrefix("skills[0].slug:") && $0.contains("'linear-equations'")
                    && $0.contains("'linear_equations'")
            })
        #expect(
            errors.contains {
                $0.hasPrefix("questions[0].slug:") && $0.contains("'x-solve-basic'") && $0.contains("--fix-slugs")
            })
        #expect(errors.contains { $0.hasPrefix("questions[1].slug:") && $0.contains("'order-steps'") })
        #expect(plan.report(dryRun: false).contains("Import blocked: 3 errors"))
    }

    @Test func fixSlugsImportsTheSamplesInTheMathDecksFormat() async throws {
        let (_, library) = try await Self.library()
        let plan = SeedImporter(deck: "algebra", fixSlugs: true, file: "seed.json").plan(Self.samples, library: library)
        #expect(!plan.isBlocked, "\(plan.issues)")
        #expect(
            Set(plan.changes.keys) == [
                "corpus/algebra/deck.yaml", "corpus/algebra/algebra/domain.yaml",
                "corpus/algebra/algebra/linear_equations/skill.yaml",
                "corpus/algebra/algebra/linear_equations/x_solve_basic.yaml",
                "corpus/algebra/algebra/linear_equations/order_steps.yaml",
            ])
        #expect(plan.created == 4)
        let warnings = issues(plan, .warning)
        #expect(warnings.contains { $0.hasPrefix("skills[0].slug:") && $0.contains("imported as 'linear_equations'") })
        #expect(
            warnings.contains { $0.hasPrefix("questions[1].explanation:") },
            "the reorder sample has no explanation: a warning")
        #expect(warnings.contains { $0.hasPrefix("questions[1].sort_order:") })
        let mcq = SkillQuestion.decode(
            plan.changes["corpus/algebra/algebra/linear_equations/x_solve_basic.yaml"]!, path: "q"
        ).0
        #expect(
            mcq
                == SkillQuestion(
                    uuid: "d37faec5-38b7-4e59-8a8c-7c4fa8b8f552",
                    payload: .mcqSingle(
                        prompt: "What is the value of x in 2x = 10?", choices: ["3", "4", "5", "6"], solutionIndex: 2),
                    explanation: "Divide both sides by 2 to get x = 5.", sortOrder: 0, published: true))
        let reorder = SkillQuestion.decode(
            plan.changes["corpus/algebra/algebra/linear_equations/order_steps.yaml"]!, path: "q"
        ).0
        #expect(
            reorder?.payload
                == .reorderSteps(
                    prompt: nil, steps: ["Write the equation: 2x = 10", "Divide both sides by 2", "Get x = 5"],
                    solution: [0, 1, 2]))
        let skill = Skill.decode(plan.changes["corpus/algebra/algebra/linear_equations/skill.yaml"]!, path: "s").0
        #expect(
            skill
                == Skill(
                    uuid: "deaf350e-3929-4e52-a4bc-cc768e7bc37d", title: "Linear Equations",
                    description: "Solve for x in linear equations.", sortOrder: 1, published: true))
        let deck = DeckManifest.decode(plan.changes["corpus/algebra/deck.yaml"]!, path: "d").0
        #expect(deck?.kind == .skills)
    }

    @Test func everyHardViolationIsListedWithItsJSONPath() async throws {
        let (_, library) = try await Self.library()
        let json = """
            {"domains": [{"id": "aaaaaaaa-0000-4000-8000-000000000001", "slug": "d", "title": "D", "is_published": false, "sort_order": 0},
                         {"id": "aaaaaaaa-0000-4000-8000-000000000002", "slug": "d", "title": "Again", "is_published": false, "sort_order": 1}],
             "skills": [{"id": "bbbbbbbb-0000-4000-8000-000000000001", "domain_id": "aaaaaaaa-0000-4000-8000-000000000001", "slug": "s", "description": "x", "is_published": "yes", "sort_order": 0}],
             "questions": [
               {"id": "cccccccc-0000-4000-8000-000000000001", "skill_id": "bbbbbbbb-0000-4000-8000-000000000001", "slug": "q1", "type": "mcq_single",
                "payload": "{not json", "explanation": "e", "sort_order": 0, "is_published": false},
               {"id": "cccccccc-0000-4000-8000-000000000002", "skill_id": "bbbbbbbb-0000-4000-8000-000000000001", "slug": "q2", "type": "mcq_single",
                "payload": {"prompt": "p", "choices": ["a", "b"], "solution_index": 5}, "explanation": "e", "sort_order": 0, "is_published": false},
               {"id": "not-a-uuid", "skill_id": "bbbbbbbb-0000-4000-8000-000000000001", "slug": "q3", "type": "reorder_steps",
                "payload": {"steps": ["a", "b"], "solution": [0, 0]}, "explanation": "e", "sort_order": 0, "is_published": false},
               {"id": "cccccccc-0000-4000-8000-000000000004", "skill_id": "bbbbbbbb-0000-4000-8000-000000000001", "slug": "q4", "type": "essay",
                "payload": {}, "sort_order": 0, "is_published": false}
             ]}
            """
        let plan = SeedImporter(deck: "algebra", file: "bad.json").plan(Data(json.utf8), library: library)
        let errors = issues(plan, .error)
        #expect(plan.isBlocked && plan.changes.isEmpty)
        #expect(errors.contains { $0.hasPrefix("domains[1].slug:") && $0.contains("duplicate slug 'd'") }, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("skills[0].title:") && $0.contains("missing required field") })
        #expect(errors.contains { $0.hasPrefix("skills[0].is_published:") && $0.contains("true or false") })
        #expect(errors.contains { $0.hasPrefix("questions[0].payload:") && $0.contains("not valid JSON") })
        #expect(errors.contains { $0.hasPrefix("questions[1].payload:") && $0.contains("solution_index 5") })
        #expect(errors.contains { $0.hasPrefix("questions[2].id:") && $0.contains("not a UUID") })
        #expect(errors.contains { $0.hasPrefix("questions[2].payload:") && $0.contains("exactly once") })
        #expect(errors.contains { $0.hasPrefix("questions[3].type:") && $0.contains("'essay'") })
        #expect(issues(plan, .warning).contains { $0.hasPrefix("questions[3].explanation:") })
    }

    @Test(arguments: [
        ("[1, 2]", "not the skills seed format"),
        ("{\"words\": []}", "found an object with keys words"),
        ("{\"domains\": [", "not valid JSON"),
        ("{\"domains\": {}}", "'domains' must be an array"),
        ("{\"domains\": []}", "no domains, skills or questions"),
    ])
    func aFileThatIsNotTheSeedFormatIsRefused(json: String, expected: String) async throws {
        let (_, library) = try await Self.library()
        let plan = SeedImporter(deck: "algebra", file: "x.json").plan(Data(json.utf8), library: library)
        #expect(plan.isBlocked)
        #expect(plan.changes.isEmpty)
        #expect(plan.errors.contains { $0.message.contains(expected) }, "\(plan.errors)")
    }

    @Test(arguments: [
        (
            "{\n  \"domains\": [\n    {\"slug\": \"a\",, \"name\": \"x\"}\n  ]\n}\n", "line 3, column 18",
            "Invalid value, found ','"
        ),
        ("{\n \"skills\": [\n  {\"slug\": \"é\" \"x\"}]}\n", "line 3, column 16", "found '\"x\"'"),
        ("{\"domains\": [\n", "line 2, column 1", "the file ends before the JSON does"),
        ("\u{FEFF}{\"a\": x}", "line 1, column 7", "found 'x'"),
    ])
    func invalidJSONIsReportedWithItsLineAndColumn(json: String, location: String, message: String) async throws {
        let (_, library) = try await Self.library()
        let plan = SeedImporter(deck: "algebra", file: "x.json").plan(Data(json.utf8), library: library)
        #expect(plan.isBlocked)
        #expect(plan.changes.isEmpty)
        let error = try #require(plan.errors.first)
        #expect(error.location == location, "\(error)")
        #expect(error.message.hasPrefix("not valid JSON: "), "\(error)")
        #expect(error.message.contains(message), "\(error)")
        #expect(error.description.hasPrefix("x.json: \(location): error: not valid JSON"))
    }

    /// Issue #31, item 8: a name the file system refuses is found before anything is reported.
    @Test func aSlugOrDeckNameTooLongForAFileNameBlocksTheImport() async throws {
        let (_, library) = try await Self.library()
        let long = String(repeating: "x", count: 250)
        let json = String(decoding: Self.samples, as: UTF8.self).replacingOccurrences(
            of: "\"slug\": \"linear-equations\"", with: "\"slug\": \"\(long)\"")
        let plan = SeedImporter(deck: "algebra", fixSlugs: true, file: "x.json").plan(Data(json.utf8), library: library)
        #expect(plan.isBlocked && plan.changes.isEmpty)
        #expect(
            plan.errors.contains {
                $0.location == "skills[0].slug"
                    && $0.message.hasPrefix(
                        "the slug makes a file name of 250 bytes; the limit is \(Slug.maximumNameBytes)")
            }, "\(plan.errors)")
        let deck = String(repeating: "d", count: 201)
        let tooLong = SeedImporter(deck: deck, fixSlugs: true, file: "x.json").plan(Self.samples, library: library)
        #expect(
            tooLong.isBlocked
                && tooLong.errors.first?.message.contains("the deck name makes a file name of 201") == true)
        #expect(Slug.isValidSegment(String(repeating: "a", count: 200)) && !Slug.isValidSegment(deck))
    }

    @Test func aDeckOfAnotherKindIsACollision() async throws {
        let (_, library) = try await Self.library()
        let plan = SeedImporter(deck: "words", fixSlugs: true, file: "x.json").plan(Self.samples, library: library)
        #expect(plan.isBlocked)
        #expect(plan.errors.first?.message.contains("already exists as a vocabulary deck") == true)
    }

    @Test func theSamePublishRulesAsCheck() async throws {
        let (_, library) = try await Self.library()
        // A published skill whose only question is a draft.
        var text = String(decoding: Self.samples, as: UTF8.self)
        text = text.replacingOccurrences(
            of: "\"is_published\": true,\n      \"created_utc_ms\": 1700000002000",
            with: "\"is_published\": false,\n      \"created_utc_ms\": 1700000002000")
        text = text.replacingOccurrences(
            of: "\"is_published\": true,\n      \"created_utc_ms\": 1700000002100",
            with: "\"is_published\": false,\n      \"created_utc_ms\": 1700000002100")
        let plan = SeedImporter(deck: "algebra", fixSlugs: true, file: "x.json").plan(Data(text.utf8), library: library)
        #expect(
            plan.errors.contains { $0.location == "skills[0]" && $0.message.contains("no published question") },
            "\(plan.issues)")
    }

    @Test func appendKeepsWhatIsThereAndOverrideReplacesIt() async throws {
        let (directory, _) = try await Self.library()
        let first = SeedImporter(deck: "algebra", fixSlugs: true, file: "x.json").plan(
            Self.samples, library: try LibraryLoader().load(directory.url))
        for (path, data) in first.changes { directory.write(path, data) }
        let changed = Data(
            String(decoding: Self.samples, as: UTF8.self).replacingOccurrences(
                of: "\"Linear Equations\"", with: "\"Equations\""
            ).utf8)
        let library = try LibraryLoader().load(directory.url)

        let again = SeedImporter(deck: "algebra", fixSlugs: true, file: "x.json").plan(Self.samples, library: library)
        #expect(!again.isBlocked && again.changes.isEmpty && again.unchanged == 4)

        let append = SeedImporter(deck: "algebra", mode: .append, fixSlugs: true, file: "x.json").plan(
            changed, library: library)
        #expect(!append.isBlocked)
        #expect(append.changes.isEmpty)
        #expect(append.kept == 1 && append.unchanged == 3)
        #expect(append.issues.contains { $0.location == "skills[0]" && $0.message.contains("kept as it is") })

        let override = SeedImporter(deck: "algebra", mode: .override, fixSlugs: true, file: "x.json").plan(
            changed, library: library)
        #expect(override.replaced == 1 && override.unchanged == 3)
        #expect(
            Skill.decode(override.changes["corpus/algebra/algebra/linear_equations/skill.yaml"]!, path: "s").0?.title
                == "Equations")
    }

    @Test func anIdUsedElsewhereInTheLibraryOrASlugTakenByAnotherItemBlocks() async throws {
        let (_, library) = try await Self.library()
        // The fixture's maths deck uses 11111111-… for its arithmetic domain.
        let json = """
            {"domains": [{"id": "11111111-1111-4111-8111-111111111111", "slug": "algebra", "title": "A", "is_published": false, "sort_order": 0}]}
            """
        let plan = SeedImporter(deck: "algebra", file: "x.json").plan(Data(json.utf8), library: library)
        #expect(
            plan.errors.contains {
                $0.location == "domains[0].id" && $0.message.contains("corpus/maths/arithmetic/domain.yaml")
            }, "\(plan.issues)")
        let taken = """
            {"domains": [{"id": "99999999-1111-4111-8111-111111111111", "slug": "arithmetic", "title": "A", "is_published": false, "sort_order": 0}]}
            """
        let collision = SeedImporter(deck: "maths", mode: .override, file: "x.json").plan(
            Data(taken.utf8), library: library)
        #expect(
            collision.errors.contains { $0.location == "domains[0].slug" && $0.message.contains("different item") },
            "\(collision.issues)")
    }

    @Test func slugsAreFixedToTheUnderscoreForm() {
        #expect(SeedImporter.fixedSlug("linear-equations") == "linear_equations")
        #expect(SeedImporter.fixedSlug("X Solve--Basic!") == "x_solve_basic")
        #expect(SeedImporter.fixedSlug("--") == "")
    }
}
