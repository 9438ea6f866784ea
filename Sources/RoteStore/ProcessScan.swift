import Foundation

/// Finds a live process that has a file open, by reading /proc (Linux). Used to tell a stale
/// git lock file from one a running git is using.
enum ProcessScan {
    static func processHolding(_ file: URL) -> String? {
        let target = file.resolvingSymlinksInPath().path
        guard let pids = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        for pid in pids where Int(pid) != nil {
            guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else {
                continue
            }
            for descriptor in descriptors {
                if let destination = try? FileManager.default.destinationOfSymbolicLink(
                    atPath: "/proc/\(pid)/fd/\(descriptor)"), destination == target
                {
                    let command =
                        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(
                            in: .whitespacesAndNewlines) ?? "?"
                    return "\(pid) (\(command))"
                }
            }
        }
        return nil
    }

    /// A live git process (other than this one) whose working folder is inside `root`: git
    /// moves to the top of the work tree before it locks anything, so this finds a git that
    /// may own a lock file it no longer has open.
    static func gitProcess(workingIn root: URL) -> String? {
        let top = root.resolvingSymlinksInPath().standardizedFileURL.path
        guard let pids = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        let me = String(getpid())
        for pid in pids where Int(pid) != nil && pid != me {
            guard
                let command = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(
                    in: .whitespacesAndNewlines),
                command == "git" || command.hasPrefix("git-"),
                let folder = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd"),
                folder == top || folder.hasPrefix(top + "/")
            else { continue }
            return "\(pid) (\(command))"
        }
        return nil
    }
}
