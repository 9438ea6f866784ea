import Foundation
import Git
import RoteModel
import RoteStore
import RoteSync
import Scheduling
import Study

/// How fast a finished study session is committed in a big library:
///
///     rote-bench commit --library DIR [--reviews 200] [--runs 5] [--work DIR] [--seed S]
///
/// In two local clones of a generated library (`rote-bench generate`), each run simulates one
/// study session of `--reviews` reviews: that many progress files get one more review (and a
/// replayed state) and a session file records the attempts; the files are written to both
/// work trees first, as a study session writes them while it runs (not timed). Then:
///
/// - rote: `LibraryTransaction.commitSession` (tree built from HEAD's tree plus the changed paths,
///   commit, staging index made to match) in one clone;
/// - reference: `git add` of the same paths + `git commit` by the system git in the other.
///
/// A second pair of rows commits the same kind of session as `rote sync` finds it when the
/// session could not commit itself: `LibraryTransaction.commitPending` (a status scan of the work
/// tree, then the commit) against `git add -A` + `git commit`.
///
/// Both clones start from the same commit and get the same files each run, so their trees
/// must stay identical; the table is followed by "trees match" or the first difference.
/// Times are medians of `--runs` runs, alternating rote and git; nothing is asserted.
enum CommitBenchmark {
    static func run(_ arguments: [String]) throws {
        let options = try Options(arguments, allowed: ["library", "reviews", "runs", "work", "seed"])
        guard let libraryPath = options.string("library") else {
            throw OptionError(message: "commit needs --library DIR (made by rote-bench generate)")
        }
        let library = URL(fileURLWithPath: libraryPath).standardizedFileURL
        let reviews = max(try options.int("reviews", default: 200), 1)
        let runs = max(try options.int("runs", default: 5), 1)
        let seed = UInt64(try options.int("seed", default: 20_261_121))
        let work = URL(
            fileURLWithPath: options.string("work")
                ?? FileManager.default.temporaryDirectory.appending(path: "rote-bench-commit").path)

        let roteClone = work.appending(path: "commit-rote")
        let gitClone = work.appending(path: "commit-git")
        Bench.log("commit: cloning \(library.lastPathComponent) twice into \(work.path)")
        try Bench.clone(library, to: roteClone)
        defer { Bench.remove(roteClone) }
        try Bench.clone(library, to: gitClone)
        defer { Bench.remove(gitClone) }

        let repository = try Repository.open(at: roteClone)
        guard let head = try repository.headCommit() else {
            throw OptionError(message: "\(library.path) has no commit")
        }
        let allFiles = try head.tree().files()
        let progressPaths = allFiles.map(\.path).filter { MergeKind.forPath($0) == .progress }
        guard !progressPaths.isEmpty else { throw OptionError(message: "\(library.path) has no progress files") }
        let user = String(progressPaths[0].split(separator: "/")[1])
        let count = min(reviews, progressPaths.count)
        let settings = MergeDrivers.settingsResolver(root: roteClone)
        var clock = LibraryGenerator.end + 86_400
        let git = try LibraryTransaction(
            root: roteClone, user: user, purpose: "bench", mode: .session,
            now: { Date(timeIntervalSince1970: LibraryGenerator.end + 30 * 86_400) })

        var random = SeededGenerator(seed: seed ^ 0xc0_33_17)
        var sessionTimes: [Double] = []
        var sessionReference: [Double] = []
        var pendingTimes: [Double] = []
        var pendingReference: [Double] = []
        var checks: [String] = []
        var mismatch = false

        /// Writes one session's files into both work trees; returns the session, its
        /// progress files by path, and every path written.
        func prepareSession() throws -> (SessionFile, [String: Data], [String]) {
            let chosen = StudyRandom.shuffled(progressPaths, using: &random).prefix(count)
            var progress: [String: Data] = [:]
            var attempts: [SessionFile.Attempt] = []
            var grades = [Grade: Int]()
            let started = clock
            for path in chosen {
                // The rote clone's work tree always matches its HEAD here.
                guard let data = FileManager.default.contents(atPath: roteClone.appending(path: path).path) else {
                    continue
                }
                var file = try ProgressFile.decode(data, path: path).0.unwrap(path)
                let ms = 2_000 + Int(random.next(upperBound: UInt64(8_000)))
                clock += Double(ms / 1_000 + 3)
                let grade = [Grade.again, .hard, .good, .good, .good, .easy][Int(random.next(upperBound: UInt64(6)))]
                file.reviews.append(
                    ReviewEvent(
                        id: Bench.uuid(&random), at: Date(timeIntervalSince1970: clock), grade: grade, ms: ms,
                        device: "laptop"))
                file.state = Scheduler(settings: settings(path)).replay(file.reviews, entryID: file.entry)
                progress[path] = Data(file.render().utf8)
                grades[grade, default: 0] += 1
                attempts.append(
                    .init(
                        entry: file.entry, question: "translation", answer: grade == .again ? "?" : "ok",
                        correct: grade != .again,
                        at: Date(timeIntervalSince1970: clock), ms: ms))
            }
            let session = SessionFile(
                id: Bench.uuid(&random), user: user, device: "laptop", kind: .review,
                startedAt: Date(timeIntervalSince1970: started),
                endedAt: Date(timeIntervalSince1970: clock + 5), decks: ["bench-words"], again: grades[.again] ?? 0,
                hard: grades[.hard] ?? 0,
                good: grades[.good] ?? 0, easy: grades[.easy] ?? 0, new: 0, attempts: attempts)
            clock += 86_400
            var files = progress
            files[SessionFile.path(for: session)] = Data(session.render().utf8)
            for root in [roteClone, gitClone] {
                for (path, data) in files { try AtomicFile.write(data, to: root.appending(path: path)) }
            }
            return (session, progress, files.keys.sorted())
        }

        func compare(_ label: String) throws {
            let rote = try repository.headCommit()!.tree().id.hex
            let reference = try Bench.git(["rev-parse", "HEAD^{tree}"], in: gitClone).trimmingCharacters(
                in: .whitespacesAndNewlines)
            if rote != reference, !mismatch {
                mismatch = true
                let differing = try Bench.git(["diff", "--name-only", rote, reference], in: gitClone).split(
                    separator: "\n")
                checks.append(
                    "TREES DIFFER after \(label): rote \(rote.prefix(12)), git \(reference.prefix(12)); e.g. \(differing.prefix(3).joined(separator: ", "))"
                )
            }
        }

        for run in 1...runs {
            Bench.log("commit: run \(run) of \(runs)")
            let (session, progress, paths) = try prepareSession()
            let message = git.rendered(SessionCommitMessage.make(for: session), for: session)
            let (roteTime, _) = try Timing.measure { try git.commitSession(session, progress: progress) }
            let (gitTime, _) = try Timing.measure { () throws -> Void in
                try Bench.git(
                    ["add", "--pathspec-from-file=-", "--pathspec-file-nul"], in: gitClone,
                    input: paths.joined(separator: "\0"))
                try Bench.git(["commit", "-q", "--no-verify", "-F", "-"], in: gitClone, input: message)
            }
            sessionTimes.append(roteTime)
            sessionReference.append(gitTime)
            try compare("session commit \(run)")

            let (_, _, _) = try prepareSession()
            let (pendingTime, _) = try Timing.measure { try git.commitPending() }
            let (pendingGitTime, _) = try Timing.measure { () throws -> Void in
                try Bench.git(
                    ["add", "-A", "--", "rote.yaml", ".gitattributes", LibraryPaths.corpus, LibraryPaths.profiles],
                    in: gitClone)
                try Bench.git(["commit", "-q", "--no-verify", "-m", "Update: pending files"], in: gitClone)
            }
            pendingTimes.append(pendingTime)
            pendingReference.append(pendingGitTime)
            // commitPending writes its own message; the trees must still agree.
            try compare("pending commit \(run)")
            Bench.log(
                "commit: session \(Bench.duration(roteTime)) vs git \(Bench.duration(gitTime)); pending \(Bench.duration(pendingTime)) vs git \(Bench.duration(pendingGitTime))"
            )
        }
        if !mismatch { checks.append("trees match (all \(runs * 2) commits: rote and git give the same trees)") }
        let status = try Bench.git(["status", "--porcelain", "--untracked-files=all"], in: roteClone)
        checks.append(
            status.isEmpty
                ? "git status is clean after rote's commits"
                : "git status after rote's commits is not clean: \(status.split(separator: "\n").prefix(3).joined(separator: "; "))"
        )

        print(
            "commit: \(library.lastPathComponent) (\(allFiles.count) files); a study session of \(count) reviews: \(count) progress files + 1 session file per commit"
        )
        var table = Table(header: [
            "measurement", "rote (median of \(runs))", "reference: git add + git commit (median of \(runs))",
            "ratio (git ÷ rote)",
        ])
        let (a, b) = (Timing.median(sessionTimes), Timing.median(sessionReference))
        table.add([
            "commit a \(count)-review session: LibraryTransaction.commitSession", Bench.duration(a), Bench.duration(b),
            Bench.ratio(a, b),
        ])
        let (c, d) = (Timing.median(pendingTimes), Timing.median(pendingReference))
        table.add([
            "the same found in the work tree: LibraryTransaction.commitPending", Bench.duration(c),
            Bench.duration(d) + " (git add -A)", Bench.ratio(c, d),
        ])
        print(table.render())
        for check in checks { print(check) }
    }
}
