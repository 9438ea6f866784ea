import Foundation
import RoteModel
import RoteStore

/// `rote export --user U --format json|csv --out DIR`: everything of one learner (seed 004's
/// right to portability) — profile, every progress file with every review, every session with
/// every attempt, and saved content — in documented formats (docs/export.md). The JSON and
/// CSV carry the same fields as the YAML files, under the same names.
public enum LearnerExport {
    public enum Format: String, Sendable, CaseIterable { case json, csv }

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { message }
    }

    public static let formatName = "rote-learner-export"
    public static let formatVersion = 1

    /// Writes the export into `folder` (created if needed) and returns the files written.
    /// `library` must be loaded with sessions.
    @discardableResult
    public static func write(user: String, library: LoadedLibrary, format: Format, to folder: URL, now: Date = Date()) throws -> [URL] {
        let profile = library.profiles[user]
        let progress = (library.progress[user] ?? [:]).sorted { $0.key < $1.key }.map(\.value)
        let sessions = library.sessions[user] ?? []
        let saved = savedFiles(user: user, root: library.root)
        guard profile != nil || !progress.isEmpty || !sessions.isEmpty || !saved.isEmpty else {
            throw Failure(message: "no learner '\(user)' in this library (nothing under profiles/\(user)/); use --user NAME")
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        switch format {
        case .json:
            let document = JSONValue.object([
                "format": .string(formatName),
                "version": .number(Double(formatVersion)),
                "user": .string(user),
                "exported_at": .string(Timestamp.format(now)),
                "profile": profile.map { json($0.yamlValue) } ?? .null,
                "progress": .array(progress.map { json($0.yamlValue) }),
                "sessions": .array(sessions.map { json($0.yamlValue) }),
                "saved": .array(saved.map { .object(["path": .string($0.path), "content": .string($0.text)]) }),
            ])
            let url = folder.appending(path: "\(user).json")
            try AtomicFile.write(document.serialized() + "\n", to: url)
            return [url]
        case .csv:
            var files: [(String, [[String]])] = []
            var profileRows = [["key", "value"]]
            if let profile { flatten(profile.yamlValue, prefix: "", into: &profileRows) }
            files.append(("profile.csv", profileRows))
            var progressRows = [["entry", "status", "status_at", "phase", "step", "stability", "difficulty", "ease", "interval", "due", "reps", "lapses", "last_review", "reviews"]]
            var reviewRows = [["entry", "id", "at", "grade", "ms", "device"]]
            for file in progress {
                let state = file.state
                progressRows.append([
                    file.entry, file.status.rawValue, file.statusAt.map(Timestamp.format) ?? "", state?.phase.rawValue ?? "", state?.step.map(String.init) ?? "",
                    state?.stability.map(YAMLValue.format) ?? "", state?.difficulty.map(YAMLValue.format) ?? "", state?.ease.map(YAMLValue.format) ?? "",
                    state?.interval.map(YAMLValue.format) ?? "", state.map { Timestamp.format($0.due) } ?? "", state.map { String($0.reps) } ?? "",
                    state.map { String($0.lapses) } ?? "", state?.lastReview.map(Timestamp.format) ?? "", String(file.reviews.count),
                ])
                for review in file.reviews {
                    reviewRows.append([file.entry, review.id, Timestamp.format(review.at), review.grade.name, review.ms.map(String.init) ?? "", review.device ?? ""])
                }
            }
            files.append(("progress.csv", progressRows))
            files.append(("reviews.csv", reviewRows))
            var sessionRows = [["id", "device", "type", "started_at", "ended_at", "decks", "again", "hard", "good", "easy", "new", "attempts"]]
            var attemptRows = [["session", "entry", "question", "answer", "correct", "at", "ms"]]
            for session in sessions {
                sessionRows.append([session.id, session.device ?? "", session.kind.rawValue, Timestamp.format(session.startedAt), session.endedAt.map(Timestamp.format) ?? "",
                                    CellList.join(session.decks), String(session.again), String(session.hard), String(session.good), String(session.easy),
                                    String(session.new), String(session.attempts.count)])
                for attempt in session.attempts {
                    attemptRows.append([session.id, attempt.entry, attempt.question, attempt.answer, attempt.correct ? "true" : "false", Timestamp.format(attempt.at), String(attempt.ms)])
                }
            }
            files.append(("sessions.csv", sessionRows))
            files.append(("attempts.csv", attemptRows))
            files.append(("saved.csv", [["path", "content"]] + saved.map { [$0.path, $0.text] }))
            var written: [URL] = []
            for (name, rows) in files {
                let url = folder.appending(path: name)
                try AtomicFile.write(DelimitedText.render(rows, separator: ","), to: url)
                written.append(url)
            }
            return written
        }
    }

    /// Saved content (`profiles/<user>/saved/**`), path relative to the library and text.
    static func savedFiles(user: String, root: URL) -> [(path: String, text: String)] {
        let folder = root.appending(path: "profiles/\(user)/saved")
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]) else { return [] }
        let rootPath = root.standardizedFileURL.path + "/"
        var out: [(path: String, text: String)] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            out.append((String(url.standardizedFileURL.path.dropFirst(rootPath.count)), String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self)))
        }
        return out.sorted { $0.path < $1.path }
    }

    /// The JSON form of a canonical YAML value: numbers and booleans typed, timestamps as
    /// ISO-8601 strings.
    static func json(_ value: YAMLValue) -> JSONValue {
        switch value {
        case let .string(text): return .string(text)
        case .null: return .null
        case let .raw(text):
            if text == "true" { return .bool(true) }
            if text == "false" { return .bool(false) }
            if text == "null" { return .null }
            if let number = Double(text), !text.contains(":") { return .number(number) }
            return .string(text)
        case let .list(items, _): return .array(items.map(json))
        case let .map(pairs, _): return .object(Dictionary(pairs.map { ($0.0, json($0.1)) }, uniquingKeysWith: { $1 }))
        }
    }

    /// Dotted keys for nested mappings (`settings.daily_goal`); lists of scalars as `a; b`.
    static func flatten(_ value: YAMLValue, prefix: String, into rows: inout [[String]]) {
        switch value {
        case let .map(pairs, _):
            for (key, inner) in pairs { flatten(inner, prefix: prefix.isEmpty ? key : "\(prefix).\(key)", into: &rows) }
        case let .list(items, _):
            rows.append([prefix, CellList.join(items.map { item in
                if case let .string(text) = item { return text }
                return item.inline()
            })])
        case let .string(text), let .raw(text): rows.append([prefix, text])
        case .null: rows.append([prefix, ""])
        }
    }
}
