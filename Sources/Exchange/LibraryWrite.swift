import Foundation
import Git
import RoteModel
public import RoteStore

/// Helpers for the commits imports and erasures make (the writing itself is
/// `LibraryGit.apply`, all or nothing).
public enum LibraryWrite {
    /// Trailers every Rote commit carries.
    public static func trailers(git: LibraryGit) -> String {
        "\(SessionCommitMessage.deviceTrailer): \(git.device)\n\(SessionCommitMessage.userTrailer): \(git.user)\n"
    }
}
