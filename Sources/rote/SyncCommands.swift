import ArgumentParser
import Foundation
import Git
import RoteLibrary
import RoteStore
import RoteSync

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Commit pending work, fetch, merge and push — bring this library and its remote together.",
        discussion: """
            The remote is `origin` unless --remote says otherwise; it can be a path, file://, \
            git://, ssh or https URL. Progress, profiles and sessions merge without conflicts \
            (see docs/sync.md); deck files merge field by field, and a value both sides \
            changed differently keeps one side's value and lists the other under \
            `conflicts:` in the file (`rote check` shows both; sync then exits 1). A file \
            that cannot be merged at all is left with git's conflict markers and is not \
            pushed until fixed; everything else syncs. Credentials \
            come from ssh-agent, ~/.ssh keys, git credential helpers or ROTE_GIT_TOKEN, and \
            are never stored in the library. The token is sent only over https, and only to \
            ROTE_GIT_TOKEN_HOST or, when that is unset, the host of the library's origin.
            """
    )

    @ParentCommand var rote: RoteCommand

    @Option(help: ArgumentHelp("The remote to sync with.", valueName: "name"))
    var remote = "origin"

    @Flag(help: "Accept an ssh host key Rote has not seen before (check it first).")
    var acceptNewHostKey = false

    func run() throws {
        let report = try CommandContext.library(rote.global).sync(
            remote: remote, credentials: Credentials(acceptUnknownHosts: acceptNewHostKey),
            mergeDriver: SetupGitCommand.rotePath
        ) { Terminal.note($0) }
        var parts: [String] = []
        if report.committedPending { parts.append("committed pending work") }
        if let merged = report.merged {
            parts.append((report.fastForwarded ? "fast-forwarded: " : "merged ") + merged.text)
        }
        if report.pushed { parts.append("pushed") }
        if parts.isEmpty { parts.append("already up to date") }
        print("Synced with \(remote): \(parts.joined(separator: "; ")).")
        for drop in report.erasureDrops {
            print("Kept an erasure: \(drop.text).")
        }
        if !report.conflicts.isEmpty {
            print("Content both sides changed on the same lines now holds conflict markers:")
            for path in report.conflicts { print("  \(path)") }
            print("Run `rote check` to see the lines, keep what you want, remove the markers, and commit.")
        }
        if !report.heldBack.isEmpty {
            Terminal.error(
                "not pushed: \(report.heldBack.joined(separator: ", ")) still hold\(report.heldBack.count == 1 ? "s" : "") git's conflict markers, which no device could read; fix \(report.heldBack.count == 1 ? "it" : "them"), commit, and run `rote sync` again"
            )
        }
        for conflict in report.editConflicts {
            Terminal.error("warning: \(conflict.text)")
        }
        // Scripts see that something needs a person, though everything else synced.
        if !report.heldBack.isEmpty || !report.editConflicts.isEmpty { throw ExitCode(1) }
    }
}

struct CloneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clone",
        abstract: "Clone a library from a git remote and set up Rote's merge drivers for plain git."
    )

    @ParentCommand var rote: RoteCommand

    @Argument(help: ArgumentHelp("The remote: a path, file://, git://, ssh or https URL.", valueName: "url"))
    var url: String

    @Argument(help: ArgumentHelp("Where to put it (default: the remote's name without .git).", valueName: "path"))
    var path: String?

    @Flag(help: "Accept an ssh host key Rote has not seen before (check it first).")
    var acceptNewHostKey = false

    func run() throws {
        let base = URL(
            fileURLWithPath: rote.global.directory ?? FileManager.default.currentDirectoryPath, isDirectory: true)
        let name = path ?? String(url.split(separator: "/").last ?? "rote").replacingOccurrences(of: ".git", with: "")
        let destination = URL(fileURLWithPath: name, relativeTo: base).standardizedFileURL
        if FileManager.default.fileExists(atPath: destination.path),
            !((try? FileManager.default.contentsOfDirectory(atPath: destination.path)) ?? []).isEmpty
        {
            throw CLIError("\(destination.path) exists and is not empty; choose another folder")
        }
        let shownURL = RemoteURL.redactingUserinfo(url)
        try Library.clone(
            from: url, to: destination, credentials: Credentials(acceptUnknownHosts: acceptNewHostKey),
            mergeDriver: SetupGitCommand.rotePath)
        print("Cloned \(shownURL) into \(destination.path); git is set up to merge Rote's files (rote setup-git).")
        print("Next: rote -C \(name) study, then rote -C \(name) sync")
    }
}

struct SetupGitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup-git",
        abstract: "Tell git how to merge Rote's files, so `git pull` merges exactly as `rote sync` does.",
        discussion:
            "Writes merge.rote-progress, merge.rote-profile, merge.rote-immutable, merge.rote-letters and merge.rote-entry drivers (`rote merge-driver <kind> %O %A %B %P`) into the library's .git/config, and which paths take them into .git/info/attributes (untracked, and ahead of the library's .gitattributes, which may predate a rule). `rote init`, `rote clone` and `rote sync` do this too."
    )

    @ParentCommand var rote: RoteCommand

    /// This binary's absolute path, so git finds the same rote whatever PATH says.
    static var rotePath: String {
        let argument = CommandLine.arguments[0]
        if argument.contains("/") {
            return URL(fileURLWithPath: argument).standardizedFileURL.resolvingSymlinksInPath().path
        }
        return (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? argument
    }

    func run() throws {
        let root = try CommandContext.locate(rote.global)
        try Library.setUpGit(at: root, mergeDriver: SetupGitCommand.rotePath)
        print(
            "git in \(root.path) now merges progress, profile, session, letters and deck files with \(SetupGitCommand.rotePath) merge-driver."
        )
    }
}

struct MergeDriverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-driver",
        abstract: "The merge driver git runs for Rote's files (set up by `rote setup-git`).",
        discussion:
            "git calls `rote merge-driver KIND %O %A %B %P`: the result is written over OURS; exit 0 means merged, 1 means a conflict (OURS then holds both versions between conflict markers)."
    )

    @Argument(help: "progress, profile, immutable, letters or entry") var kind: String
    @Argument(help: "The common ancestor's version (%O).") var base: String
    @Argument(help: "Our version, overwritten with the result (%A).") var ours: String
    @Argument(help: "Their version (%B).") var theirs: String
    @Argument(help: "The file's path in the library (%P).") var path: String

    func run() throws {
        guard let kind = MergeKind(rawValue: kind) else {
            throw CLIError(
                "unknown merge driver kind '\(kind)'; use \(MergeKind.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        // git runs drivers at the top of the work tree.
        let outcome = try MergeDrivers.runForGit(
            kind: kind, base: URL(fileURLWithPath: base), ours: URL(fileURLWithPath: ours),
            theirs: URL(fileURLWithPath: theirs), path: path,
            root: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        switch outcome {
        case .merged(let warnings):
            for warning in warnings { Terminal.error("rote merge-driver: warning: \(warning)") }
        case .conflict(let reason):
            Terminal.error("rote merge-driver: \(path): \(reason)")
            throw ExitCode(1)
        }
    }
}
