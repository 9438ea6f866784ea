import Foundation

/// This device's name in review events and commit trailers: the host name made into a slug,
/// plus a short random suffix so two machines with the same host name stay apart. Kept in
/// `.git/rote/device`, which is never committed, so each clone has its own.
public enum DeviceIdentity {
    public static func name(root: URL) -> String {
        let file = root.appending(path: ".git/rote/device")
        if let saved = try? String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), !saved.isEmpty {
            return saved
        }
        let host = Slug.make(from: ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "device")
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let name = "\(host)-\(suffix.prefix(4))"
        try? AtomicFile.write(name + "\n", to: file)
        return name
    }
}
