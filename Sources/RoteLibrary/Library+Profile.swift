import Foundation
import RoteModel
import RoteStore

extension Library {
    /// Changes the learner's profile in one commit: the file is read again in full under the
    /// lock (a profile that does not read is never rewritten), `change` edits it, and
    /// `updated_at` moves so a sync merges the edit key by key. Returns the profile written;
    /// nothing is committed when `change` leaves it as it was.
    @discardableResult
    public func updateProfile(subject: String, now: Date = Date(), _ change: (inout Profile) throws -> Void) throws -> Profile {
        try write(purpose: "profile") { git in
            let path = paths.profile
            guard var profile = try ReadBeforeRewrite.read(Profile.self, at: path, in: root) else {
                throw LibraryError(.notFound, "no learner '\(user)' in this library (\(path)); use --user NAME")
            }
            let before = profile.render()
            try change(&profile)
            guard profile.render() != before else { return profile }
            profile.updatedAt = Timestamp.wholeSeconds(now)
            try git.apply(
                changes: [path: Data(profile.render().utf8)],
                message: "\(subject)\n\n\(SessionCommitMessage.deviceTrailer): \(git.device)\n\(SessionCommitMessage.userTrailer): \(user)\n")
            return profile
        }
    }
}
