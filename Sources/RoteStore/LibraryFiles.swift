import Foundation
package import RoteModel

/// What a file in a library is, by its path. The path decides the format; a path that fits
/// none is reported, not guessed at.
package enum LibraryFile: Sendable, Equatable {
    case manifest
    case deckManifest(deck: String)
    case entry(deck: String, id: String)
    /// `corpus/<deck>/<domain>/domain.yaml` — skills decks only.
    case domain(deck: String, domain: String)
    /// `corpus/<deck>/<domain>/<skill>/skill.yaml` — skills decks only.
    case skill(deck: String, domain: String, skill: String)
    case profile(user: String)
    case progress(user: String, entry: String)
    case session(user: String)
    case saved(user: String)
    /// `profiles/<user>/letters/<deck>/<letter>.yaml`: tracing attempts at one letter.
    case letters(user: String, letter: String)

    /// Classifies a library-relative path, or explains why it cannot be part of the library.
    /// Only `.yaml` files are classified; callers skip other files (media, READMEs).
    package static func classify(_ path: String) -> Result<LibraryFile, Diagnostic> {
        if let common = classifyCommon(path) { return .success(common) }
        return classifyInFull(path)
    }

    static func classifyInFull(_ path: String) -> Result<LibraryFile, Diagnostic> {
        // Split as bytes: `String.split` walks characters, and this runs for every file.
        let parts = path.utf8.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
        if path == LibraryLocation.manifestName { return .success(.manifest) }
        guard let top = parts.first, parts.count >= 2, let name = parts.last, name.hasSuffix(".yaml") else {
            return .failure(
                .warning(path, nil, "not a file Rote reads (only rote.yaml, corpus/ and profiles/ hold library files)"))
        }
        let stem = String(name.dropLast(5))
        let segments = Array(parts.dropLast()) + [stem]
        for segment in segments.dropFirst() where !Slug.isValidSegment(segment) {
            return .failure(
                .error(
                    path, nil,
                    "'\(segment)' is not a valid id segment; use lowercase letters, digits, _ . - (starting with a letter or digit)"
                ))
        }
        switch top {
        case LibraryPaths.corpus:
            let deck = segments[1]
            if parts.count == 2 {
                return .failure(
                    .error(path, nil, "a YAML file directly in corpus/ belongs in a deck folder, corpus/<deck>/"))
            }
            if parts.count == 3, stem == "deck" { return .success(.deckManifest(deck: deck)) }
            if stem == "domain", parts.count == 4 { return .success(.domain(deck: deck, domain: segments[2])) }
            if stem == "skill", parts.count == 5 {
                return .success(.skill(deck: deck, domain: segments[2], skill: segments[3]))
            }
            return .success(.entry(deck: deck, id: segments[1...].joined(separator: "/")))
        case LibraryPaths.profiles:
            let user = segments[1]
            if parts.count == 3, stem == "profile" { return .success(.profile(user: user)) }
            guard parts.count >= 4 else { break }
            switch parts[2] {
            case "progress" where parts.count >= 5:
                return .success(.progress(user: user, entry: segments[3...].joined(separator: "/")))
            case "sessions": return .success(.session(user: user))
            case "saved": return .success(.saved(user: user))
            case "letters" where parts.count >= 5:
                return .success(.letters(user: user, letter: segments[3...].joined(separator: "/")))
            default: break
            }
            return .failure(
                .warning(
                    path, nil,
                    "unexpected file under \(LibraryPaths(user: user).folder)/; Rote reads profile.yaml, progress/, letters/, sessions/ and saved/"
                ))
        default:
            break
        }
        return .failure(
            .warning(path, nil, "not a file Rote reads (only rote.yaml, corpus/ and profiles/ hold library files)"))
    }

    /// The two shapes nearly every file has — `corpus/<deck>/<name>.yaml`, an entry, and
    /// `profiles/<user>/progress/<deck>/<name>.yaml` — read from the path's bytes with the
    /// same rules `classify` applies; nil for anything else (or anything wrong), which
    /// `classify` then reads in full. A library checks 150 000 paths at every full load.
    static func classifyCommon(_ path: String) -> LibraryFile? {
        var path = path
        return path.withUTF8 { bytes -> LibraryFile? in
            guard bytes.count > 5, bytes.last == 0x6C, bytes[bytes.count - 5] == 0x2E, bytes[bytes.count - 4] == 0x79,
                bytes[bytes.count - 3] == 0x61, bytes[bytes.count - 2] == 0x6D
            else { return nil }
            // Where each segment starts and ends, the last without `.yaml`.
            var bounds: [(Int, Int)] = []
            bounds.reserveCapacity(5)
            var start = 0
            for index in 0..<bytes.count where bytes[index] == 0x2F {
                bounds.append((start, index))
                start = index + 1
                if bounds.count > 4 { return nil }
            }
            bounds.append((start, bytes.count - 5))
            func segment(_ number: Int) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: bytes[bounds[number].0..<bounds[number].1])
            }
            func text(_ number: Int) -> String { String(decoding: segment(number), as: UTF8.self) }
            func equals(_ number: Int, _ word: String) -> Bool { word.utf8.elementsEqual(segment(number)) }
            guard (1..<bounds.count).allSatisfy({ Slug.isValidSegment(segment($0)) }) else { return nil }
            if bounds.count == 3, equals(0, LibraryPaths.corpus), !equals(2, "deck") {
                return .entry(deck: text(1), id: text(1) + "/" + text(2))
            }
            if bounds.count == 5, equals(0, LibraryPaths.profiles), equals(2, "progress") {
                return .progress(user: text(1), entry: text(3) + "/" + text(4))
            }
            return nil
        }
    }
}
