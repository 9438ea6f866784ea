import ArgumentParser
import Foundation
import LibGit
import RoteModel
import RoteStore
import RoteSync
import Study

/// `rote suspend`, `rote ignore`, `rote activate` and `rote reset`: change where entries stand
/// for the learner, through the progress file's `status`/`status_at` (last writer wins when
/// devices disagree) or its `reset_at`, in one commit.
enum StatusChange {
    case status(ProgressFile.Status)
    case reset

    func run(_ global: GlobalOptions, ids: [String], verb: String) throws {
        let context = try CommandContext.open(global, loader: LibraryLoader(users: .all, includeSessions: false))
        try context.requireProfile()
        var entries: [Entry] = []
        for id in ids {
            let entry = try context.entry(named: id)
            if !entries.contains(where: { $0.id == entry.id }) { entries.append(entry) }
        }
        do {
            let lock = try LibraryLock(root: context.root, purpose: verb)
            defer { withExtendedLifetime(lock) {} }
            let git = try LibraryGit.forWriting(root: context.root, user: context.user)
            let recorder = ReviewRecorder(root: context.root, user: context.user, device: git.device, library: context.library)
            let now = Timestamp.wholeSeconds(Date())
            var changes: [String: Data?] = [:]
            for entry in entries {
                let result = try recorder.updated(entry: entry.id) { file in
                    switch self {
                    case let .status(status):
                        file.status = status
                    case .reset:
                        // Back to new: the reviews stay as history (a merge would bring deleted
                        // ones back anyway), only those after reset_at schedule it.
                        file.status = .active
                        file.resetAt = file.reviews.map(\.at).max().map { max($0, now) } ?? now
                        file.ladder = nil
                    }
                    file.statusAt = now
                }
                changes[result.path] = result.data
                let shown: String
                switch self {
                case let .status(status): shown = status.rawValue
                case .reset: shown = "new again (\(result.file.reviews.count) earlier review\(result.file.reviews.count == 1 ? "" : "s") kept as history)"
                }
                print("\(entry.id): \(shown)")
            }
            let names = entries.map(\.id)
            let subject = "\(verb.prefix(1).uppercased() + verb.dropFirst()): " + (names.count <= 3 ? names.joined(separator: ", ") : "\(names.count) entries")
            // All or nothing: every file is written and committed together, or none is.
            try git.apply(changes: changes, message: "\(subject)\n\n\(SessionCommitMessage.deviceTrailer): \(git.device)\n\(SessionCommitMessage.userTrailer): \(context.user)\n")
        } catch {
            throw CLIError.explaining(error)
        }
    }
}

struct Suspend: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Take entries out of study for now, keeping their schedule (`rote activate` brings them back).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("Entry ids or words.", valueName: "entry")) var entries: [String]
    func run() throws { try StatusChange.status(.suspended).run(global, ids: entries, verb: "suspend") }
}

struct Ignore: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Never study these entries (seed 002's triage: a word you know or do not want).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("Entry ids or words.", valueName: "entry")) var entries: [String]
    func run() throws { try StatusChange.status(.ignored).run(global, ids: entries, verb: "ignore") }
}

struct Activate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Bring suspended or ignored entries back into study, where their schedule left them.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("Entry ids or words.", valueName: "entry")) var entries: [String]
    func run() throws { try StatusChange.status(.active).run(global, ids: entries, verb: "activate") }
}

struct Reset: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make entries new again; their reviews stay in the file as history but no longer schedule them.",
        discussion: "Sets reset_at in the progress file (a merge keeps the later one) and the status to active; a passage starts its acquisition ladder again.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("Entry ids or words.", valueName: "entry")) var entries: [String]
    func run() throws { try StatusChange.reset.run(global, ids: entries, verb: "reset") }
}
