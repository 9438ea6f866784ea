import AnkiImport
import Exchange
import Foundation
import RoteModel
import RoteStore

/// The importers on arbitrary files. Beyond not crashing, an import that plans files must
/// plan files Rote reads back: every YAML file it would write parses without an error.
enum ImportTargets {
    /// A small library on disk for the Anki importer's settings, and a scratch file.
    nonisolated(unsafe) static var root = URL(fileURLWithPath: "/")
    nonisolated(unsafe) static var scratch = URL(fileURLWithPath: "/")

    static func prepare() {
        let folder = FileManager.default.temporaryDirectory.appending(path: "rote-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(
            at: folder.appending(path: "library/profiles/fuzz"), withIntermediateDirectories: true)
        try? Data("format: 1\ndefault_user: fuzz\n".utf8).write(to: folder.appending(path: "library/rote.yaml"))
        try? Data("user: fuzz\n".utf8).write(to: folder.appending(path: "library/profiles/fuzz/profile.yaml"))
        root = folder.appending(path: "library")
        scratch = folder.appending(path: "input.apkg")
        atexit { try? FileManager.default.removeItem(at: ImportTargets.root.deletingLastPathComponent()) }
    }

    static func checkPlanned(_ changes: [String: Data], _ input: Data) {
        for (path, data) in changes where path.hasSuffix(".yaml") {
            let problems = YAMLSource.parse(data, path: path).1.filter { $0.severity == .error }
            if !problems.isEmpty {
                propertyFailed(
                    "an import planned \(path), which does not read: \(problems)",
                    String(decoding: data, as: UTF8.self) + "\n--- from ---\n" + String(decoding: input, as: UTF8.self))
            }
        }
    }

    static func seedJSON(_ data: Data) {
        let plan = SeedImporter(deck: "fuzz", file: "seed.json").plan(data, library: LoadedLibrary(root: root))
        checkPlanned(plan.changes, data)
    }

    static func table(_ data: Data) {
        for file in ["table.csv", "table.tsv"] {
            let plan = TableImporter(deck: "fuzz", file: file).plan(data, library: LoadedLibrary(root: root))
            checkPlanned(plan.changes, data)
        }
    }

    static func apkg(_ data: Data) {
        guard (try? data.write(to: scratch)) != nil else { return }
        guard let package = try? AnkiPackage.read(scratch, limit: 64 << 20) else { return }
        guard let settings = try? LibrarySettings(root: root, user: "fuzz") else { return }
        guard let report = try? AnkiImporter(root: root).plan(package, library: settings, options: .init(user: "fuzz"))
        else { return }
        checkPlanned(report.changes.compactMapValues { $0 }, data)
    }
}
