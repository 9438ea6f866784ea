import Foundation
import RoteModel

/// Helpers the git benchmarks share: running the system git (or any program), clones,
/// formatting durations, work on every core. (Timing itself is `Timing`.)
enum Bench {
    /// Runs `program` with `arguments` in `directory` and returns its standard output; throws
    /// with its standard error when it exits non-zero. Standard output and error are read
    /// from files, so a chatty program can never block on a full pipe.
    @discardableResult
    static func run(
        _ program: String, _ arguments: [String], in directory: URL? = nil, input: String? = nil,
        environment: [String: String] = [:]
    ) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program.hasPrefix("/") ? program : try which(program))
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let scratch = FileManager.default.temporaryDirectory.appending(path: "rote-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appending(path: "out")
        let errURL = scratch.appending(path: "err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        if let input {
            let inURL = scratch.appending(path: "in")
            try input.write(to: inURL, atomically: false, encoding: .utf8)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        let output = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            let errors = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
            throw OptionError(
                message:
                    "\(program) \(arguments.prefix(6).joined(separator: " ")) failed (exit \(process.terminationStatus)): \(errors.suffix(2_000))"
            )
        }
        return output
    }

    /// The system git, in `repository`.
    @discardableResult
    static func git(_ arguments: [String], in repository: URL, input: String? = nil) throws -> String {
        try run("git", arguments, in: repository, input: input, environment: gitEnvironment)
    }

    /// Keeps the user's and system's git configuration out of the measurements (hooks,
    /// templates, fsmonitor, signing), with a fixed identity.
    static let gitEnvironment: [String: String] = [
        "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@rote.invalid",
        "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@rote.invalid",
    ]

    /// The full path of a program on PATH.
    static func which(_ name: String) throws -> String {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw OptionError(message: "\(name) is not on PATH")
    }

    /// A local clone of `library` at `destination` (objects hard-linked, work tree checked
    /// out), set up so that only the measured work runs: no automatic gc or maintenance.
    static func clone(_ library: URL, to destination: URL) throws {
        remove(destination)
        try FileManager.default.createDirectory(
            at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try run("git", ["clone", "-q", library.path, destination.path], environment: gitEnvironment)
        for (key, value) in [
            ("gc.auto", "0"), ("maintenance.auto", "false"), ("user.name", "bench"),
            ("user.email", "bench@rote.invalid"),
        ] {
            try git(["config", key, value], in: destination)
        }
        // Settles the index's racily-clean entries now, not inside a measurement.
        try git(["update-index", "-q", "--refresh"], in: destination)
    }

    /// `12.3 ms`, `4.56 s`, `2 min 05 s`, `3 h 20 min`, `9.3 days`.
    static func duration(_ seconds: Double) -> String {
        if seconds.isNaN { return "—" }
        if seconds < 1 { return String(format: "%.1f ms", seconds * 1_000) }
        if seconds < 100 { return String(format: "%.2f s", seconds) }
        let whole = Int(seconds.rounded())
        if whole < 7_200 { return String(format: "%d min %02d s", whole / 60, whole % 60) }
        if whole < 172_800 { return String(format: "%d h %02d min", whole / 3_600, whole % 3_600 / 60) }
        return String(format: "%.1f days", seconds / 86_400)
    }

    /// `31×` (how many times faster the first is), or `0.5×`.
    static func ratio(_ rote: Double, _ reference: Double) -> String {
        guard rote > 0, !rote.isNaN, !reference.isNaN else { return "—" }
        let value = reference / rote
        return value >= 10 ? String(format: "%.0f×", value) : String(format: "%.2f×", value)
    }

    /// Removes a folder with `rm -rf` (much faster than FileManager for 100 000 files).
    static func remove(_ folder: URL) {
        _ = try? run("rm", ["-rf", folder.path])
    }

    /// Writes a line to standard error (progress, never part of the table).
    static func log(_ text: String) {
        let elapsed = started.duration(to: .now)
        let stamp = String(
            format: "[%6.1f s] ", Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        FileHandle.standardError.write(Data((stamp + text + "\n").utf8))
    }

    /// When this process started its work, for the time stamps of progress lines.
    static let started = ContinuousClock.now

    /// A lowercase UUID-shaped id (version 4 layout) from the generator, so ids repeat per seed.
    static func uuid(_ random: inout SeededGenerator) -> String {
        let high = random.next()
        let low = random.next()
        let a = (high >> 32) & 0xffff_ffff
        let b = (high >> 16) & 0xffff
        let c = (high & 0x0fff) | 0x4000
        let d = ((low >> 48) & 0x3fff) | 0x8000
        let e = low & 0xffff_ffff_ffff
        func hex(_ value: UInt64, _ width: Int) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(hex(a, 8))-\(hex(b, 4))-\(hex(c, 4))-\(hex(d, 4))-\(hex(e, 12))"
    }
}
