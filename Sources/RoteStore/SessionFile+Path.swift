public import RoteModel

extension SessionFile {
    /// `profiles/<user>/sessions/<yyyy>/<mm>/<id>.yaml`.
    public static func path(for session: SessionFile) -> String {
        LibraryPaths.session(session)
    }
}
