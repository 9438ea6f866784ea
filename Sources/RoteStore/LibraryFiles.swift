import Foundation

/// What a file in a library is, by its path. The path decides the format; a path that fits
/// none is reported, not guessed at.
public enum LibraryFile: Sendable, Equatable {
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
    public static func classify(_ path: String) -> Result<LibraryFile, Diagnostic> {
        let parts = path.split(separator: "/").map(String.init)
        if path == LibraryLocation.manifestName { return .success(.manifest) }
        guard let top = parts.first, parts.count >= 2, let name = parts.last, name.hasSuffix(".yaml") else {
            return .failure(.warning(path, nil, "not a file Rote reads (only rote.yaml, corpus/ and profiles/ hold library files)"))
        }
        let stem = String(name.dropLast(5))
        let segments = Array(parts.dropLast()) + [stem]
        for segment in segments.dropFirst() where !Slug.isValidSegment(segment) {
            return .failure(.error(path, nil, "'\(segment)' is not a valid id segment; use lowercase letters, digits, _ . - (starting with a letter or digit)"))
        }
        switch top {
        case "corpus":
            let deck = segments[1]
            if parts.count == 2 {
                return .failure(.error(path, nil, "a YAML file directly in corpus/ belongs in a deck folder, corpus/<deck>/"))
            }
            if parts.count == 3, stem == "deck" { return .success(.deckManifest(deck: deck)) }
            if stem == "domain", parts.count == 4 { return .success(.domain(deck: deck, domain: segments[2])) }
            if stem == "skill", parts.count == 5 { return .success(.skill(deck: deck, domain: segments[2], skill: segments[3])) }
            return .success(.entry(deck: deck, id: segments[1...].joined(separator: "/")))
        case "profiles":
            let user = segments[1]
            if parts.count == 3, stem == "profile" { return .success(.profile(user: user)) }
            guard parts.count >= 4 else { break }
            switch parts[2] {
            case "progress" where parts.count >= 5: return .success(.progress(user: user, entry: segments[3...].joined(separator: "/")))
            case "sessions": return .success(.session(user: user))
            case "saved": return .success(.saved(user: user))
            case "letters" where parts.count >= 5: return .success(.letters(user: user, letter: segments[3...].joined(separator: "/")))
            default: break
            }
            return .failure(.warning(path, nil, "unexpected file under profiles/\(user)/; Rote reads profile.yaml, progress/, letters/, sessions/ and saved/"))
        default:
            break
        }
        return .failure(.warning(path, nil, "not a file Rote reads (only rote.yaml, corpus/ and profiles/ hold library files)"))
    }
}
