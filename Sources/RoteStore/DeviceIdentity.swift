package import Foundation

/// This clone's identity in review events, session files and commit trailers: a random id
/// (`dev-` and 12 hex digits) made the first time it is needed and kept in
/// `.git/rote/device-id`, which is never committed — so each clone has its own, and nothing
/// committed says which machine a review came from (seed 004: no device identifiers).
///
/// A learner may give this device a name they recognise (`rote device --name laptop`); it is
/// kept beside the id in `.git/rote/device-name`, also never committed, and only shown here.
package enum DeviceIdentity {
    package static let idPath = ".git/rote/device-id"
    package static let namePath = ".git/rote/device-name"
    /// Where Rote before the random id kept a name made from the host name; it is removed
    /// when the random id is made, so the host name is not kept even locally.
    static let hostBasedPath = ".git/rote/device"

    /// The device id, made once per clone.
    package static func id(root: URL) -> String {
        let file = root.appending(path: idPath)
        if let saved = read(file), isValidID(saved) { return saved }
        let id = makeID()
        // When the id cannot be saved (a read-only library) it is still random; the next
        // run makes another, and nothing is lost but the id's constancy.
        try? AtomicFile.write(id + "\n", to: file)
        try? FileManager.default.removeItem(at: root.appending(path: hostBasedPath))
        return id
    }

    /// A fresh random device id: `dev-` and 12 hex digits (48 random bits).
    package static func makeID() -> String {
        "dev-" + randomHex(digits: 12)
    }

    /// True for an id `makeID` could have made.
    package static func isValidID(_ text: String) -> Bool {
        text.count == 16 && text.hasPrefix("dev-") && text.dropFirst(4).allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    /// The name the learner gave this device, if any.
    package static func localName(root: URL) -> String? {
        read(root.appending(path: namePath))
    }

    /// Sets (or, with nil, removes) this device's local name. A name is one line of at most
    /// 64 characters with no control characters.
    package static func setLocalName(_ name: String?, root: URL) throws {
        let file = root.appending(path: namePath)
        guard let name = name?.trimmingCharacters(in: .whitespaces), !name.isEmpty else {
            if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
            return
        }
        guard name.count <= 64, !name.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
        else {
            throw LibraryError(
                .invalidName, "a device name is one line of at most 64 characters, without control characters")
        }
        try AtomicFile.write(name + "\n", to: file)
    }

    /// `digits` random lowercase hex digits from the system's random source.
    package static func randomHex(digits: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<digits).map { _ in "0123456789abcdef".randomElement(using: &generator)! })
    }

    private static func read(_ file: URL) -> String? {
        guard let text = try? String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
            !text.isEmpty
        else { return nil }
        return text
    }
}
