public import Foundation
import Parallelism
public import RoteModel
public import RoteStore

/// `rote export --user U --format json|csv --out DIR`: everything of one learner (seed 004's
/// right to portability) — profile, every progress file with every review, every session with
/// every attempt, and saved content — in documented formats (docs/export.md). The JSON and
/// CSV carry the same fields as the YAML files, under the same names.
public enum LearnerExport {
    public enum Format: String, Sendable, CaseIterable { case json, csv }

    public static let formatName = "rote-learner-export"
    public static let formatVersion = 1

    /// One learner's files, as an export reads them: the profile, then each progress file in
    /// entry order and each session in order of its start, handed over one at a time.
    public struct LearnerFiles {
        public var profile: Profile?
        public var progressCount: Int
        public var sessionCount: Int
        /// Renders each progress file (`render` runs on every core, a share of files at a time)
        /// and hands over the parts in entry order.
        public var progress:
            (_ render: @escaping @Sendable (ProgressFile) -> [String], _ each: ([String]) throws -> Void) throws -> Void
        /// The same for each session, in order of its start.
        public var sessions:
            (_ render: @escaping @Sendable (SessionFile) -> [String], _ each: ([String]) throws -> Void) throws -> Void
        /// Files that did not read, left out of the export: complete once the export is written.
        public var problems: [Diagnostic] { skipped.problems }
        private let skipped = Skipped()

        private final class Skipped {
            var problems: [Diagnostic] = []
        }

        /// From a library already loaded (with sessions).
        public init(user: String, library: LoadedLibrary) {
            profile = library.profiles[user]
            let progress = (library.progress[user] ?? [:]).sorted { $0.key < $1.key }.map(\.value)
            let sessions = library.sessions[user] ?? []
            progressCount = progress.count
            sessionCount = sessions.count
            self.progress = { render, each in for file in progress { try each(render(file)) } }
            self.sessions = { render, each in for session in sessions { try each(render(session)) } }
        }

        /// Read from the learner's folder as they are exported: a progress or session file is
        /// parsed when its turn comes and then dropped, so memory stays that of one file
        /// whatever the history's size. Sessions are ordered by a first pass that keeps only
        /// each one's start.
        public init(user: String, root: URL) {
            let paths = LibraryPaths(user: user)
            let loader = LibraryLoader(users: .only(user), includeSessions: true)
            profile = FileManager.default.contents(atPath: root.appending(path: paths.profile).path).flatMap {
                Profile.decode($0, path: paths.profile).0
            }
            @Sendable func parse(_ path: String) -> LibraryLoader.ParseResult? {
                loader.parse(root: root, path: path, decks: [:])
            }
            // Entry order, which is not path order: `a/b-c.yaml` sorts before `a/b.yaml`.
            let progressPaths = loader.listFiles(root, under: ["\(paths.folder)/progress"]).0.compactMap {
                path -> (entry: String, path: String)? in
                guard case let .success(.progress(_, entry)) = LibraryFile.classify(path) else { return nil }
                return (entry, path)
            }.sorted { $0.entry < $1.entry }
            let sessionPaths = loader.listFiles(root, under: ["\(paths.folder)/sessions"]).0
            let skipped = skipped
            var starts: [(start: Date, order: Int, path: String)] = []
            for (order, path) in sessionPaths.enumerated() {
                let parsed = parse(path)
                skipped.problems += parsed?.problems.filter { $0.severity == .error } ?? []
                if case let .session(_, session)? = parsed?.value { starts.append((session.startedAt, order, path)) }
            }
            starts.sort { ($0.start, $0.order) < ($1.start, $1.order) }
            progressCount = progressPaths.count
            sessionCount = starts.count
            // A share at a time: parsed and rendered on every core, written in order, dropped.
            func inShares(
                _ paths: [String], _ render: @escaping @Sendable (LibraryLoader.ParseResult) -> [String]?,
                _ each: ([String]) throws -> Void
            ) throws {
                for start in stride(from: 0, to: paths.count, by: 1_024) {
                    let share = Array(paths[start..<min(start + 1_024, paths.count)])
                    for (problems, parts) in share.concurrentMap({ path -> ([Diagnostic], [String]?) in
                        guard let parsed = parse(path) else { return ([], nil) }
                        return (parsed.problems.filter { $0.severity == .error }, render(parsed))
                    }) {
                        skipped.problems += problems
                        if let parts { try each(parts) }
                    }
                }
            }
            let orderedProgress = progressPaths.map(\.path)
            let orderedSessions = starts.map(\.path)
            progress = { render, each in
                try inShares(
                    orderedProgress,
                    { parsed in
                        if case let .progress(_, file)? = parsed.value { return render(file) }
                        return nil
                    }, each)
            }
            sessions = { render, each in
                try inShares(
                    orderedSessions,
                    { parsed in
                        if case let .session(_, session)? = parsed.value { return render(session) }
                        return nil
                    }, each)
            }
        }
    }

    /// Writes the export into `folder` (created if needed) and returns the files written.
    /// `library` must be loaded with sessions.
    @discardableResult
    public static func write(user: String, library: LoadedLibrary, format: Format, to folder: URL, now: Date = Date())
        throws -> [URL]
    {
        try write(
            user: user, files: LearnerFiles(user: user, library: library), root: library.root, format: format,
            to: folder, now: now)
    }

    /// Writes the export of `files` into `folder`, each file written as it is read and put in
    /// place whole (`AtomicFile.Stream`); returns the files written.
    @discardableResult
    public static func write(
        user: String, files: LearnerFiles, root: URL, format: Format, to folder: URL, now: Date = Date()
    ) throws -> [URL] {
        let profile = files.profile
        let saved = savedFiles(user: user, root: root)
        let letters = letterFiles(user: user, root: root)
        guard profile != nil || files.progressCount > 0 || files.sessionCount > 0 || !saved.isEmpty || !letters.isEmpty
        else {
            throw LibraryError(
                .notFound,
                "no learner '\(user)' in this library (nothing under \(LibraryPaths(user: user).folder)/); use --user NAME"
            )
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        switch format {
        case .json:
            let url = folder.appending(path: "\(user).json")
            let stream = try AtomicFile.Stream(to: url)
            var document = try JSONObjectWriter(stream.write)
            try document.member("exported_at", .string(Timestamp.format(now)))
            try document.member("format", .string(formatName))
            try document.arrayMember(
                "letters",
                rendered: { item in
                    for file in letters { try item(jsonText(file.yamlValue, indent: 2)) }
                })
            try document.member("profile", profile.map { json($0.yamlValue) } ?? .null)
            try document.arrayMember(
                "progress",
                rendered: { item in
                    try files.progress({ [jsonText($0.yamlValue, indent: 2)] }, { try item($0[0]) })
                })
            try document.member(
                "saved", .array(saved.map { .object(["path": .string($0.path), "content": .string($0.text)]) }))
            try document.arrayMember(
                "sessions",
                rendered: { item in
                    try files.sessions({ [jsonText($0.yamlValue, indent: 2)] }, { try item($0[0]) })
                })
            try document.member("user", .string(user))
            try document.member("version", .number(Double(formatVersion)))
            try document.finish()
            try stream.write("\n")
            try stream.commit()
            return [url]
        case .csv:
            func table(_ name: String, _ header: [String]) throws -> (url: URL, stream: AtomicFile.Stream) {
                let url = folder.appending(path: name)
                let stream = try AtomicFile.Stream(to: url)
                try stream.write(DelimitedText.render(row: header, separator: ","))
                return (url, stream)
            }
            @Sendable func csvRow(_ row: [String]) -> String { DelimitedText.render(row: row, separator: ",") }
            func add(_ row: [String], to table: (url: URL, stream: AtomicFile.Stream)) throws {
                try table.stream.write(csvRow(row))
            }
            let profileTable = try table("profile.csv", ["key", "value"])
            var profileRows: [[String]] = []
            if let profile { flatten(profile.yamlValue, prefix: "", into: &profileRows) }
            for row in profileRows { try add(row, to: profileTable) }
            let progressTable = try table(
                "progress.csv",
                [
                    "entry", "status", "status_at", "phase", "step", "stability", "difficulty", "ease", "interval",
                    "due", "reps", "lapses", "last_review", "reviews",
                    "ladder_level", "ladder_covered", "ladder_attempts", "ladder_at", "reflection", "reflection_at",
                ])
            let reviewTable = try table("reviews.csv", ["entry", "id", "at", "grade", "ms", "device"])
            try files.progress(
                { file in
                    let state = file.state
                    let row = csvRow([
                        file.entry, file.status.rawValue, file.statusAt.map(Timestamp.format) ?? "",
                        state?.phase.rawValue ?? "", state?.step.map(String.init) ?? "",
                        state?.stability.map(YAMLValue.format) ?? "", state?.difficulty.map(YAMLValue.format) ?? "",
                        state?.ease.map(YAMLValue.format) ?? "",
                        state?.interval.map(YAMLValue.format) ?? "", state.map { Timestamp.format($0.due) } ?? "",
                        state.map { String($0.reps) } ?? "",
                        state.map { String($0.lapses) } ?? "", state?.lastReview.map(Timestamp.format) ?? "",
                        String(file.reviews.count),
                        file.ladder?.level ?? "", file.ladder.map { CellList.join($0.covered.map(String.init)) } ?? "",
                        file.ladder.map { String($0.attempts) } ?? "",
                        file.ladder.map { Timestamp.format($0.at) } ?? "", file.reflection?.text ?? "",
                        file.reflection.map { Timestamp.format($0.at) } ?? "",
                    ])
                    let reviews = file.reviews.map { review in
                        csvRow([
                            file.entry, review.id, Timestamp.format(review.at), review.grade.name,
                            review.ms.map(String.init) ?? "", review.device ?? "",
                        ])
                    }.joined()
                    return [row, reviews]
                },
                { parts in
                    try progressTable.stream.write(parts[0])
                    try reviewTable.stream.write(parts[1])
                })
            let sessionTable = try table(
                "sessions.csv",
                [
                    "id", "device", "type", "started_at", "ended_at", "decks", "again", "hard", "good", "easy", "new",
                    "attempts", "skill", "score",
                ])
            let attemptTable = try table(
                "attempts.csv", ["session", "entry", "question", "answer", "correct", "at", "ms"])
            try files.sessions(
                { session in
                    let row = csvRow([
                        session.id, session.device ?? "", session.kind.rawValue, Timestamp.format(session.startedAt),
                        session.endedAt.map(Timestamp.format) ?? "",
                        CellList.join(session.decks), String(session.again), String(session.hard), String(session.good),
                        String(session.easy),
                        String(session.new), String(session.attempts.count), session.skill ?? "",
                        session.score.map(YAMLValue.format) ?? "",
                    ])
                    let attempts = session.attempts.map { attempt in
                        csvRow([
                            session.id, attempt.entry, attempt.question, attempt.answer,
                            attempt.correct ? "true" : "false", Timestamp.format(attempt.at), String(attempt.ms),
                        ])
                    }.joined()
                    return [row, attempts]
                },
                { parts in
                    try sessionTable.stream.write(parts[0])
                    try attemptTable.stream.write(parts[1])
                })
            let savedTable = try table("saved.csv", ["path", "content"])
            for item in saved { try add([item.path, item.text], to: savedTable) }
            // Seed 003's letter attempts: scores, tips and the drawing (as JSON, [[[x, y, t]]]).
            let letterTable = try table(
                "letter_attempts.csv",
                [
                    "letter", "id", "mode", "score", "stroke_order", "direction", "shape", "start", "tips", "hint_used",
                    "started_at", "completed_at", "duration_ms", "drawing",
                ])
            for file in letters {
                for attempt in file.attempts {
                    let drawing = attempt.drawing.map { stroke in
                        "["
                            + stroke.map { point in
                                "["
                                    + ([point.x, point.y] + (point.t.map { [$0] } ?? [])).map(YAMLValue.format).map(
                                        Self.plainNumber
                                    ).joined(separator: ", ") + "]"
                            }.joined(separator: ", ") + "]"
                    }
                    try add(
                        [
                            file.letter, attempt.id ?? "", attempt.mode.rawValue, String(attempt.score),
                            String(attempt.strokeOrder), String(attempt.direction),
                            String(attempt.shape), String(attempt.start), CellList.join(attempt.tips),
                            attempt.hintUsed ? "true" : "false",
                            Timestamp.format(attempt.startedAt), Timestamp.format(attempt.completedAt),
                            String(attempt.durationMs), "[" + drawing.joined(separator: ", ") + "]",
                        ], to: letterTable)
                }
            }
            let tables = [
                profileTable, progressTable, reviewTable, sessionTable, attemptTable, savedTable, letterTable,
            ]
            for table in tables { try table.stream.commit() }
            return tables.map(\.url)
        }
    }

    /// `1.0` as `1`, so numbers in a CSV cell read as JSON numbers do.
    static func plainNumber(_ text: String) -> String { text.hasSuffix(".0") ? String(text.dropLast(2)) : text }

    /// The learner's letter attempt files (`profiles/<user>/letters/**`), by letter id; a file
    /// that does not read is left out (`rote check` names it).
    static func letterFiles(user: String, root: URL) -> [LetterAttemptsFile] {
        let loader = LibraryLoader(users: .only(user), includeSessions: false)
        return loader.listFiles(root, under: ["\(LibraryPaths(user: user).folder)/letters"]).0.compactMap {
            path -> LetterAttemptsFile? in
            guard case let .letters(_, file)? = loader.parse(root: root, path: path, decks: [:])?.value else {
                return nil
            }
            return file
        }.sorted { $0.letter < $1.letter }
    }

    /// Saved content (`profiles/<user>/saved/**`), path relative to the library and text.
    static func savedFiles(user: String, root: URL) -> [(path: String, text: String)] {
        let folder = root.appending(path: LibraryPaths(user: user).saved)
        guard
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        let rootPath = root.standardizedFileURL.path + "/"
        var out: [(path: String, text: String)] = []
        for case let url as URL in walker
        where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            out.append(
                (
                    String(url.standardizedFileURL.path.dropFirst(rootPath.count)),
                    String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self)
                ))
        }
        return out.sorted { $0.path < $1.path }
    }

    /// The JSON form of a canonical YAML value (`YAMLAsJSON`).
    static func json(_ value: YAMLValue) -> JSONValue { JSONValue(YAMLAsJSON(value)) }

    /// The pretty JSON text of a YAML value nested `indent` levels deep, written straight from it.
    static func jsonText(_ value: YAMLValue, indent: Int) -> String { value.jsonText(indent: indent) }

    /// Dotted keys for nested mappings (`settings.daily_goal`); lists of scalars as `a; b`.
    static func flatten(_ value: YAMLValue, prefix: String, into rows: inout [[String]]) {
        switch value {
        case let .map(pairs, _):
            for (key, inner) in pairs { flatten(inner, prefix: prefix.isEmpty ? key : "\(prefix).\(key)", into: &rows) }
        case let .list(items, _):
            rows.append([
                prefix,
                CellList.join(
                    items.map { item in
                        if case let .string(text) = item { return text }
                        return item.inline()
                    }),
            ])
        case let .string(text), let .raw(text): rows.append([prefix, text])
        case .null: rows.append([prefix, ""])
        }
    }
}
