public import Foundation

/// A fresh folder under the system temp directory, removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL
    private let removesOnRelease: Bool

    public init(_ label: String = "rote-test") {
        url = FileManager.default.temporaryDirectory
            .appending(path: "\(label)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        removesOnRelease = true
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A folder at `url` (made when missing) that the caller owns: it stays when this value
    /// is released — for a folder inside a file system a test mounts.
    public init(at url: URL) {
        self.url = url
        removesOnRelease = false
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { if removesOnRelease { try? FileManager.default.removeItem(at: url) } }

    /// Writes text to a path relative to the folder, creating folders on the way.
    public func write(_ path: String, _ text: String) {
        write(path, Data(text.utf8))
    }

    public func write(_ path: String, _ data: Data) {
        let target = url.appending(path: path)
        try? FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        // A fixture that did not get written would fail its test for the wrong reason.
        precondition(
            FileManager.default.createFile(atPath: target.path, contents: data), "could not write \(target.path)")
    }

    public func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: url.appending(path: path).path).flatMap {
            String(data: $0, encoding: .utf8)
        }
    }

    public func remove(_ path: String) {
        try? FileManager.default.removeItem(at: url.appending(path: path))
    }
}
