import Foundation
import Git
import Parallelism
import RoteModel
import RoteStore
import RoteSync
import Scheduling
import Study

/// How fast two devices' study merges, in process against git running Rote's driver:
///
///     rote-bench merge --library DIR [--changed 10000] [--runs 3] [--reference full|sample|none]
///                      [--reference-runs 1] [--sample 1] [--sync-runs 0] [--rote PATH]
///                      [--work DIR] [--seed S]
///
/// From a generated library (`rote-bench generate`), in a local clone of it, two branches
/// each add one review to `--changed` progress files; half of them are on both branches, so
/// the progress driver merges them (review union, state replayed). Then:
///
/// - rote, in process, as `rote sync` merges (`LibrarySync.integrate`): `Repository.mergeCommits`
///   with the drivers of `MergeDrivers.register`, conflicts resolved, the tree written and the
///   merge commit created. With `--sync-runs K`, a second row times the rest of what sync
///   does: the changed paths and the summary for the commit message, checking out the merged
///   files and moving the branch (minutes on a 100 000-entry library: see the report);
/// - the reference: the system `git merge` of the same two commits in the same clone,
///   configured by `MergeDrivers.configure(rotePath:)`, so git runs `rote merge-driver
///   progress %O %A %B %P` once per file changed on both sides; and the same merge with a
///   no-op driver (`true`), which is git's own share of the work (the merge result is then
///   wrong, and not compared).
///
/// `--reference sample` is for when the driver is too slow to run thousands of times: the
/// full-size reference is estimated as the no-op merge plus the number of driver calls times
/// one call, measured by a merge of `--sample` files changed on both sides run both ways.
/// `none` skips git. The rote rows are medians of `--runs` runs, the reference's of
/// `--reference-runs`. The merged trees of rote and git are compared: the table is followed
/// by "trees match" or the paths that differ.
enum MergeBenchmark {
    struct Branches {
        var ours: ObjectID
        var theirs: ObjectID
        /// Files changed on both sides: the driver merges these.
        var both: Int
        var changed: Int
    }

    static func run(_ arguments: [String]) throws {
        let options = try Options(
            arguments,
            allowed: [
                "library", "changed", "runs", "reference", "sample", "reference-runs", "rote", "work", "seed",
                "sync-runs",
            ])
        guard let libraryPath = options.string("library") else {
            throw OptionError(message: "merge needs --library DIR (made by rote-bench generate)")
        }
        let library = URL(fileURLWithPath: libraryPath).standardizedFileURL
        var changed = max(try options.int("changed", default: 10_000), 2)
        let runs = max(try options.int("runs", default: 3), 1)
        let referenceRuns = max(try options.int("reference-runs", default: 1), 1)
        let sample = max(try options.int("sample", default: 1), 1)
        let syncRuns = try options.int("sync-runs", default: 0)
        let mode = options.string("reference") ?? "full"
        guard ["sample", "full", "none"].contains(mode) else {
            throw OptionError(message: "--reference is full, sample or none")
        }
        let seed = UInt64(try options.int("seed", default: 20_261_121))
        let rote = mode == "none" ? "" : try options.string("rote") ?? siblingRote()
        let work = URL(
            fileURLWithPath: options.string("work")
                ?? FileManager.default.temporaryDirectory.appending(path: "rote-bench-merge").path)

        let clone = work.appending(path: "merge-clone")
        Bench.log("merge: cloning \(library.lastPathComponent) into \(clone.path)")
        try Bench.clone(library, to: clone)
        defer { Bench.remove(clone) }
        let repository = try Repository.open(at: clone)
        guard let base = try repository.headCommit() else {
            throw OptionError(message: "\(library.path) has no commit")
        }
        let files = try base.tree().files()
        let progressPaths = files.map(\.path).filter { MergeKind.forPath($0) == .progress }
        if changed * 3 / 2 > progressPaths.count {
            changed = progressPaths.count * 2 / 3
            Bench.log("merge: the library has \(progressPaths.count) progress files; changing \(changed) per branch")
        }
        let settings = MergeDrivers.settingsResolver(root: clone)
        try MergeDrivers.register(for: repository, settings: settings)

        var random = SeededGenerator(seed: seed)
        let shuffled = StudyRandom.shuffled(progressPaths, using: &random)
        let big = try makeBranches(
            repository, base: base, paths: shuffled, changed: changed, name: "bench", settings: settings,
            random: &random)
        let small =
            mode == "sample"
            ? try makeBranches(
                repository, base: base, paths: Array(shuffled.suffix(sample * 3)), changed: sample * 2,
                name: "bench-sample",
                settings: settings, random: &random)
            : nil
        let oursTree = try repository.commit(big.ours).tree()
        try Bench.git(["checkout", "-q", "bench-ours"], in: clone)
        try Bench.git(["update-index", "-q", "--refresh"], in: clone)

        // Rote, in process.
        Bench.log("merge: in process, \(runs) runs")
        var mergeTimes: [Double] = []
        var syncTimes: [Double] = []
        var sampleTimes: [Double] = []
        var mergedTree: ObjectID?
        var sampleTree: ObjectID?
        var conflicts = 0
        for _ in 0..<runs {
            let (time, result) = try Timing.measure { try mergeInProcess(repository, root: clone, big) }
            mergeTimes.append(time)
            mergedTree = result.tree
            conflicts = result.conflicts
            Bench.log("merge: in process: \(Bench.duration(time))")
        }
        for _ in 0..<syncRuns {
            let (time, result) = try Timing.measure { () throws -> (ObjectID, String) in
                let merged = try mergeInProcess(repository, root: clone, big)
                try repository.checkoutTree(try repository.tree(merged.tree), baseline: oursTree)
                try repository.setReference(
                    named: "refs/heads/bench-ours", to: merged.commit, message: "rote-bench: merge")
                return (merged.tree, merged.summary)
            }
            syncTimes.append(time)
            Bench.log("merge: as rote sync: \(Bench.duration(time)); merged \(result.1)")
            try repository.checkoutTree(oursTree, baseline: try repository.tree(result.0))
            try repository.setReference(named: "refs/heads/bench-ours", to: big.ours, message: "rote-bench: reset")
        }
        if let small {
            for _ in 0..<runs {
                let (time, result) = try Timing.measure { try mergeInProcess(repository, root: clone, small) }
                sampleTimes.append(time)
                sampleTree = result.tree
            }
        }

        // The reference: git merge running `rote merge-driver`, and with a no-op driver.
        var checks: [String] = []
        var fullReference: [Double] = []
        var sampleReference: [Double] = []
        var noopReference: [Double] = []
        if mode != "none" {
            let config = try repository.config()
            for kind in MergeKind.allCases {
                try config.set("merge.\(MergeDrivers.driverName(kind)).driver", to: "true")
            }
            noopReference = try gitMerges(
                clone, ours: big.ours, theirs: "bench-theirs", runs: referenceRuns, expect: nil, label: "no-op driver",
                checks: &checks)
            try MergeDrivers.configure(repository, rotePath: rote)
            if mode == "full" {
                fullReference = try gitMerges(
                    clone, ours: big.ours, theirs: "bench-theirs", runs: referenceRuns, expect: mergedTree,
                    label: "the merge", checks: &checks)
            } else if let small {
                try Bench.git(["checkout", "-q", "bench-sample-ours"], in: clone)
                sampleReference = try gitMerges(
                    clone, ours: small.ours, theirs: "bench-sample-theirs", runs: referenceRuns, expect: sampleTree,
                    label: "sample merge", checks: &checks)
            }
        }

        // The table.
        print(
            "merge: \(library.lastPathComponent) (\(files.count) files); each branch adds a review to \(big.changed) progress files, "
                + "\(big.both) of them on both branches (\(big.both) driver merges)\(conflicts > 0 ? "; \(conflicts) conflicts resolved" : "")"
        )
        let noop = Timing.median(noopReference)
        var reference = Double.nan
        var perCall = Double.nan
        let referenceHeader: String
        switch mode {
        case "full":
            reference = Timing.median(fullReference)
            perCall = (reference - noop) / Double(max(big.both, 1))
            referenceHeader = "reference: git merge + rote merge-driver (median of \(referenceRuns))"
        case "sample":
            perCall = Timing.median(sampleReference) / Double(max(small?.both ?? 1, 1))
            reference = noop + perCall * Double(big.both)
            referenceHeader =
                "reference: git merge + rote merge-driver (median of \(referenceRuns); full size estimated)"
        default:
            referenceHeader = "reference: not run"
        }
        var table = Table(header: [
            "measurement", "rote in process (median of \(runs))", referenceHeader, "ratio (git ÷ rote)",
        ])
        let rote1 = Timing.median(mergeTimes)
        let referenceCell =
            mode == "sample"
            ? "≈ \(Bench.duration(reference)) (no-op merge + \(big.both) × one driver call)" : Bench.duration(reference)
        table.add([
            "\(big.changed)+\(big.changed) files, \(big.both) on both: merge, drivers, tree, summary, commit (LibrarySync.mergeCommit)",
            Bench.duration(rote1), referenceCell,
            Bench.ratio(rote1, reference),
        ])
        if syncRuns > 0 {
            let rote2 = Timing.median(syncTimes)
            table.add([
                "same + checkout, branch move (all rote sync does; \(syncRuns) run\(syncRuns == 1 ? "" : "s"))",
                Bench.duration(rote2), referenceCell, Bench.ratio(rote2, reference),
            ])
        }
        if mode != "none" {
            table.add(["git merge with a no-op driver (git's own share)", "—", Bench.duration(noop), "—"])
            table.add([
                "one rote merge-driver call: \(mode == "full" ? "(merge − no-op) ÷ \(big.both)" : "sample ÷ \(small?.both ?? 1)")",
                "—",
                Bench.duration(perCall), "—",
            ])
        }
        if let small, mode == "sample" {
            let (a, b) = (Timing.median(sampleTimes), Timing.median(sampleReference))
            table.add([
                "\(small.changed)+\(small.changed) files, \(small.both) on both, same inputs both ways",
                Bench.duration(a), Bench.duration(b), Bench.ratio(a, b),
            ])
        }
        print(table.render())
        for check in checks { print(check) }
    }

    /// The `rote` built beside this `rote-bench`.
    static func siblingRote() throws -> String {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let path = me.deletingLastPathComponent().appending(path: "rote").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw OptionError(
                message:
                    "no rote binary at \(path); build it (make release) or pass --rote PATH")
        }
        return path
    }

    /// Two branches from `base`: `<name>-ours` adds a review to the first `changed` of
    /// `paths`, `<name>-theirs` to `changed` of them starting halfway, so half are on both.
    static func makeBranches(
        _ repository: Repository, base: Commit, paths: [String], changed: Int, name: String,
        settings: @escaping @Sendable (String) -> SchedulerSettings, random: inout SeededGenerator
    ) throws -> Branches {
        let overlap = changed / 2
        let workTree = try repository.workTree.unwrap("the clone's work tree")
        let ours = Array(paths.prefix(changed))
        let theirs = Array(paths.dropFirst(changed - overlap).prefix(changed))
        let baseTree = try base.tree()
        let signature = try Signature(
            name: "bench", email: "bench@rote.invalid",
            date: Date(timeIntervalSince1970: LibraryGenerator.end + 3 * 86_400))
        let salt = random.next()
        func branch(_ side: String, _ selection: [String], device: String, day: Double) throws -> ObjectID {
            // Each file draws from its own stream, so the files can be made on every core.
            // A file that does not read stops the benchmark, after every file was tried.
            let contents = try Array(0..<selection.count).concurrentMap { number in
                Result { () throws -> (String, Data)? in
                    let path = selection[number]
                    var random = LibraryGenerator.stream(salt, day == 1 ? 11 : 12, number)
                    // From the work tree (the clone has the base checked out): looking a path up
                    // in a tree re-reads its whole folder, 50 000 entries here (see the report).
                    guard let data = FileManager.default.contents(atPath: workTree.appending(path: path).path) else {
                        return nil
                    }
                    var file = try ProgressFile.decode(data, path: path).0.unwrap(path)
                    let last = file.reviews.last?.at.timeIntervalSince1970 ?? LibraryGenerator.end
                    let at = max(last + 3_600, LibraryGenerator.end + day * 86_400 + Double(number))
                    let grade = [Grade.again, .hard, .good, .good, .good, .easy][
                        Int(random.next(upperBound: UInt64(6)))]
                    file.reviews.append(
                        ReviewEvent(
                            id: Bench.uuid(&random), at: Date(timeIntervalSince1970: at), grade: grade,
                            ms: 2_000 + Int(random.next(upperBound: UInt64(6_000))), device: device))
                    file.state = Scheduler(settings: settings(path)).replay(file.reviews, entryID: file.entry)
                    return (path, Data(file.render().utf8))
                }
            }.map { try $0.get() }
            var changes: [String: Data?] = [:]
            for case let (path, data)? in contents { changes[path] = data }
            let tree = try repository.buildTree(from: baseTree, changes: changes)
            return try repository.createCommit(
                tree: tree, parents: [base], message: "Study on the \(device): \(selection.count) reviews\n",
                author: signature, committer: signature, updateReference: "refs/heads/\(name)-\(side)")
        }
        Bench.log(
            "merge: making branches \(name)-ours and \(name)-theirs (\(changed) progress files each, \(overlap) on both)"
        )
        return Branches(
            ours: try branch("ours", ours, device: "laptop", day: 1),
            theirs: try branch("theirs", theirs, device: "desktop", day: 2),
            both: Set(ours).intersection(theirs).count, changed: changed)
    }

    /// The merge as `rote sync` makes it, up to the merge commit (not moving any branch): the
    /// product's own `LibrarySync.mergeCommit` — `mergeCommits` with the registered drivers,
    /// conflicts resolved as sync resolves them, what it brought in counted, the commit made.
    static func mergeInProcess(_ repository: Repository, root: URL, _ branches: Branches) throws -> (
        tree: ObjectID, commit: ObjectID, conflicts: Int, summary: String
    ) {
        let git = try LibraryTransaction(
            root: root, user: "bench", purpose: "bench", mode: .sync,
            now: { Date(timeIntervalSince1970: LibraryGenerator.end + 4 * 86_400) })
        let merge = try LibrarySync(transaction: git, remoteName: "bench-theirs").mergeCommit(
            ours: repository.commit(branches.ours), theirs: repository.commit(branches.theirs))
        return (merge.tree.id, merge.commit, merge.conflicts.count, merge.summary.text)
    }

    /// Times `git merge` of `theirs` into the checked-out branch `runs` times, resetting to
    /// `ours` after each, and compares the merged tree with `expect`.
    static func gitMerges(
        _ clone: URL, ours: ObjectID, theirs: String, runs: Int, expect: ObjectID?, label: String,
        checks: inout [String]
    ) throws -> [Double] {
        var times: [Double] = []
        for run in 1...runs {
            Bench.log("merge: git merge (\(label)), run \(run) of \(runs)…")
            let (time, _) = try Timing.measure { try Bench.git(["merge", "-q", "--no-edit", theirs], in: clone) }
            times.append(time)
            Bench.log("merge: git merge (\(label)): \(Bench.duration(time))")
            let tree = try Bench.git(["rev-parse", "HEAD^{tree}"], in: clone).trimmingCharacters(
                in: .whitespacesAndNewlines)
            if run == 1, let expect {
                if tree == expect.hex {
                    checks.append("trees match (\(label): in process and git merge both give tree \(tree.prefix(12)))")
                } else {
                    let differing = try Bench.git(["diff", "--name-only", expect.hex, tree], in: clone).split(
                        separator: "\n")
                    checks.append(
                        "TREES DIFFER (\(label)): in process \(expect.hex.prefix(12)), git \(tree.prefix(12)); \(differing.count) paths differ, e.g. \(differing.prefix(3).joined(separator: ", "))"
                    )
                }
            }
            try Bench.git(["reset", "-q", "--hard", ours.hex], in: clone)
        }
        return times
    }
}

extension Optional {
    func unwrap(_ what: String) throws -> Wrapped {
        guard let value = self else { throw OptionError(message: "\(what) cannot be read") }
        return value
    }
}
