import Foundation
import TestSupport
import Testing

@testable import Git

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Helpers for the LibGit tests: real repositories made and checked with the system `git`,
/// and real servers (`git daemon`, `git http-backend`) on 127.0.0.1.
enum GitTest {
    static let identity = ["-c", "user.name=Test", "-c", "user.email=test@example.invalid"]

    /// Runs the system git and records a test issue when it fails.
    @discardableResult
    static func git(_ arguments: [String], in directory: URL, sourceLocation: SourceLocation = #_sourceLocation) async
        -> String
    {
        let output = await Shell.run("git", identity + arguments, in: directory)
        #expect(
            output.status == 0, "git \(arguments.joined(separator: " ")): \(output.stderr)",
            sourceLocation: sourceLocation)
        return output.stdout
    }

    /// `git fsck --strict` finds nothing wrong.
    static func expectSound(_ repository: URL, sourceLocation: SourceLocation = #_sourceLocation) async {
        let fsck = await Shell.run("git", ["fsck", "--strict", "--no-progress"], in: repository)
        #expect(
            fsck.status == 0, "git fsck in \(repository.path): \(fsck.stdout)\(fsck.stderr)",
            sourceLocation: sourceLocation)
    }

    /// A bare repository at `directory/name` whose `main` holds `files`, made by the system git.
    @discardableResult
    static func makeBareRemote(in directory: TemporaryDirectory, name: String = "shared.git", files: [String: String])
        async
        -> URL
    {
        let bare = directory.url.appending(path: name)
        await git(["init", "-q", "--bare", "-b", "main", bare.path], in: directory.url)
        let seed = directory.url.appending(path: "seed-\(name)")
        await git(["init", "-q", "-b", "main", seed.path], in: directory.url)
        for (path, text) in files {
            let target = seed.appending(path: path)
            try? FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: target.path, contents: Data(text.utf8))
        }
        await git(["add", "-A"], in: seed)
        await git(["commit", "-qm", "Seed"], in: seed)
        await git(["push", "-q", bare.path, "main"], in: seed)
        return bare
    }

    /// Writes `files` into the work tree (nil deletes), stages them and commits on HEAD,
    /// all through LibGit, the way Rote commits a study session.
    @discardableResult
    static func commit(_ files: [String: String?], message: String, in repository: Repository, at date: Date = Date())
        throws -> ObjectID
    {
        let top = try #require(repository.workTree)
        let index = try repository.index()
        for (path, text) in files {
            let target = top.appending(path: path)
            if let text {
                try FileManager.default.createDirectory(
                    at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: target)
                try index.add(path: path)
            } else {
                try? FileManager.default.removeItem(at: target)
                try index.remove(path: path)
            }
        }
        try index.write()
        let signature = try Signature(name: "Test", email: "test@example.invalid", date: date)
        let parents = try repository.headCommit().map { [$0] } ?? []
        return try repository.createCommit(
            tree: try index.writeTree(), parents: parents, message: message, author: signature, committer: signature)
    }

    /// A commit of `tree` with `parents` that moves no reference.
    static func looseCommit(_ tree: Tree, parents: [Commit], message: String, in repository: Repository) throws
        -> ObjectID
    {
        let signature = try Signature(
            name: "Test", email: "test@example.invalid", date: Date(timeIntervalSince1970: 1_795_255_200))
        return try repository.createCommit(
            tree: tree, parents: parents, message: message, author: signature, committer: signature,
            updateReference: nil)
    }

    static func text(_ id: ObjectID?, in repository: Repository) throws -> String? {
        guard let id else { return nil }
        return String(decoding: try repository.blob(id), as: UTF8.self)
    }

    static func text(at path: String, of tree: Tree, in repository: Repository) throws -> String? {
        try text(tree.entryID(atPath: path), in: repository)
    }

    /// Where git keeps its sub-commands (`git --exec-path`).
    static func execPath() async -> URL {
        URL(
            fileURLWithPath: await Shell.run("git", ["--exec-path"]).stdout.trimmingCharacters(
                in: .whitespacesAndNewlines))
    }

    /// Kills a server this test started. SIGKILL, because a child started from a Swift
    /// concurrency thread inherits that thread's blocked signals, SIGTERM included.
    static func stop(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// A TCP port on 127.0.0.1 that nothing listened on a moment ago.
    static func freePort() -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    /// True once something accepts TCP connections on 127.0.0.1:`port`.
    static func isListening(_ port: UInt16) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0
    }
}

/// A server started with `posix_spawn` and killed with SIGKILL when released. For servers such
/// as sshd that close every inherited file descriptor at start: Foundation's `Process` takes
/// that for an exit and blocks its monitoring thread in `waitpid`, stalling every other
/// `Process` in the test run.
final class SpawnedServer {
    let pid: pid_t

    init(_ executable: String, _ arguments: [String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard result == 0 else {
            throw GitError(
                code: -1, message: "cannot start \(executable): error \(result)", operation: "starting a server")
        }
        self.pid = pid
    }

    /// True while the process has not exited.
    var isRunning: Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}

/// A `git daemon` serving every repository under `basePath` over `git://127.0.0.1:port/`,
/// pushes included, stopped when the value is released.
final class GitDaemon {
    let port: UInt16
    private let process: Process

    init(basePath: URL) async throws {
        // The daemon itself, not the `git` wrapper, so that stopping it stops the server.
        let daemon = await GitTest.execPath().appending(path: "git-daemon")
        for _ in 0..<3 {
            let port = GitTest.freePort()
            let process = Process()
            process.executableURL = daemon
            process.arguments = [
                "--reuseaddr", "--base-path=\(basePath.path)", "--export-all",
                "--enable=receive-pack", "--listen=127.0.0.1", "--port=\(port)", basePath.path,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Bounded wait: up to 5 s for the daemon to listen.
            var listening = false
            for _ in 0..<100 where process.isRunning {
                listening = GitTest.isListening(port)
                if listening { break }
                usleep(50_000)
            }
            if listening {
                self.port = port
                self.process = process
                return
            }
            GitTest.stop(process)
        }
        throw GitError(code: -1, message: "git daemon did not start", operation: "starting git daemon")
    }

    func url(_ name: String) -> String { "git://127.0.0.1:\(port)/\(name)" }

    deinit { GitTest.stop(process) }
}
