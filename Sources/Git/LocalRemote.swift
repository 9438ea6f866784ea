internal import CLibGit2
import Foundation

/// A remote that is a folder on this machine (a path or `file://`). libgit2 reaches such a
/// remote by writing into it directly: it runs none of the remote's hooks and says only
/// "unsupported URL protocol" when the folder is missing. This fills both gaps.
enum LocalRemote {
    /// The hooks `git receive-pack` runs on the receiving side of a push; any of them may
    /// refuse the push or be something its owner relies on (a mirror, a notification).
    static let receiveHookNames = [
        "pre-receive", "update", "proc-receive", "reference-transaction", "push-to-checkout", "post-receive",
        "post-update",
    ]

    /// The error for a libgit2 failure on `url` when `url` is a folder that does not exist,
    /// else nil (the failure has another cause).
    static func missingFolderError(url: String, operation: String) -> GitError? {
        guard let path = RemoteURL.localPath(of: url), !FileManager.default.fileExists(atPath: path) else { return nil }
        return GitError(
            code: GIT_ENOTFOUND.rawValue, errorClass: Int32(GIT_ERROR_OS.rawValue),
            message: "the remote's path \(path) does not exist; if it is on a removable drive, plug the drive in "
                + "(is it mounted at the same place?), else correct the remote (`git remote set-url NAME PATH`)",
            operation: operation)
    }

    /// The executable receive-side hooks of the repository at `path`, found where git looks
    /// for them (`core.hooksPath`, else `hooks/` in its git folder). Empty when `path` is not a
    /// repository libgit2 can open.
    static func receiveHooks(at path: String) -> [URL] {
        guard let repository = try? Repository.open(at: URL(fileURLWithPath: path, isDirectory: true)) else {
            return []
        }
        var folder = repository.gitDirectory.appending(path: "hooks", directoryHint: .isDirectory)
        if let configured = (try? repository.config())?.string("core.hooksPath"), !configured.isEmpty {
            let expanded =
                configured.hasPrefix("~/")
                ? (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + configured.dropFirst(1)
                : configured
            // git resolves a relative hooksPath from where hooks run: the top of the work
            // tree, or the git folder of a bare repository.
            folder = URL(
                fileURLWithPath: expanded, isDirectory: true, relativeTo: repository.workTree ?? repository.gitDirectory
            )
        }
        return receiveHookNames.map { folder.appending(path: $0) }
            .filter { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The outcome of a `git push --porcelain`.
    struct PushResult: Equatable {
        /// Remote reference → the reason it was refused (`fetch first`, `pre-receive hook declined`).
        var rejected: [String: String] = [:]
        /// The lines the remote sent ("remote: …"), without that prefix.
        var remoteLines: [String] = []
    }

    /// Reads `git push --porcelain`: a line per reference, `!` marking a refusal, e.g.
    /// `!\trefs/heads/main:refs/heads/main\t[remote rejected] (pre-receive hook declined)`;
    /// the hooks' words come on stderr as `remote: …`.
    static func parsePush(stdout: String, stderr: String) -> PushResult {
        var result = PushResult()
        for line in stdout.split(separator: "\n") where line.hasPrefix("!\t") {
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let reference = fields[1].split(separator: ":").last.map(String.init) ?? String(fields[1])
            let summary = String(fields[2])
            var reason = summary
            if let open = summary.lastIndex(of: "("), let close = summary.lastIndex(of: ")"), open < close {
                reason = String(summary[summary.index(after: open)..<close])
            }
            result.rejected[reference] = reason
        }
        for line in stderr.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) where line.hasPrefix("remote:") {
            let text = line.dropFirst("remote:".count).trimmingCharacters(in: .whitespaces)
            if !text.isEmpty { result.remoteLines.append(text) }
        }
        return result
    }

    /// Pushes `refspecs` to the remote `remoteName` of the repository at `gitDirectory` with
    /// the system `git`, whose `receive-pack` runs the remote's hooks and checks (and updates
    /// each reference with a compare-and-swap) as a plain `git push` would. Returns what git
    /// reported; throws when git cannot be run or fails without saying which reference.
    static func pushWithGit(gitDirectory: URL, remoteName: String, refspecs: [String], hooks: [URL], operation: String)
        throws -> PushResult
    {
        let scratch = FileManager.default.temporaryDirectory.appending(path: "rote-push-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appending(path: "stdout")
        let err = scratch.appending(path: "stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        // Foundation's Process, not swift-subprocess: `Remote.push` is synchronous all the way up
        // (sync, the CLI, `rote serve`) and runs on concurrency-pool threads, where blocking until
        // async work finishes deadlocks, as in `Credentials.fillFromCredentialHelpers`.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // --no-verify: this side's own pre-push hook is not run, as libgit2 runs it for no
        // other remote; only the receiving side's rules are the point here.
        process.arguments =
            ["git", "--git-dir=\(gitDirectory.path)", "push", "--porcelain", "--no-verify", remoteName] + refspecs
        var environment = ProcessInfo.processInfo.environment
        for name in [
            "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
            "GIT_COMMON_DIR", "GIT_NAMESPACE",
        ] {
            environment[name] = nil
        }
        environment["GIT_TERMINAL_PROMPT"] = "0"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        // Files rather than pipes: a chatty hook cannot fill a pipe nobody is reading yet.
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        let hookNames = hooks.map(\.lastPathComponent).joined(separator: ", ")
        do {
            try process.run()
        } catch {
            throw gitMissing(hookNames: hookNames, operation: operation, cause: "\(error)")
        }
        process.waitUntilExit()
        try? outHandle.close()
        try? errHandle.close()
        let stdout = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
        // env's own status when it finds no `git` to run.
        if process.terminationStatus == 127, stdout.isEmpty {
            throw gitMissing(
                hookNames: hookNames, operation: operation,
                cause: stderr.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let result = parsePush(stdout: stdout, stderr: stderr)
        if process.terminationStatus != 0, result.rejected.isEmpty {
            let said = stderr.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }.joined(separator: " / ")
            throw GitError(
                code: GIT_ERROR.rawValue, errorClass: Int32(GIT_ERROR_NET.rawValue),
                message:
                    "git push (run because the remote has \(hookNames) hooks) failed with status \(process.terminationStatus): \(said)",
                operation: operation)
        }
        return result
    }

    static func gitMissing(hookNames: String, operation: String, cause: String) -> GitError {
        GitError(
            code: GIT_ERROR.rawValue, errorClass: Int32(GIT_ERROR_OS.rawValue),
            message:
                "the remote has hooks (\(hookNames)) that only git can run, and `git` could not be started (\(cause)); "
                + "install git (e.g. `apt install git`) so the remote's rules are applied — Rote will not push past them",
            operation: operation)
    }
}
