package import RoteModel

extension SessionFile {
    /// `profiles/<user>/sessions/<yyyy>/<mm>/<id>.yaml`.
    package static func path(for session: SessionFile) -> String {
        LibraryPaths.session(session)
    }
}
