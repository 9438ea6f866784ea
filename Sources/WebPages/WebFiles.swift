/// The pages of `rote serve` (HTML, CSS, JavaScript and the strings table): every file of the
/// checkout's `web/` folder, compiled into the binary by the EmbedFiles build plugin, so the
/// app works offline and nothing is fetched from elsewhere.
package enum WebFiles {
    /// Each file's text by its path relative to `web/` (e.g. `app.js`).
    package static let files: [String: String] = Dictionary(
        uniqueKeysWithValues: webPageFileList.map { ($0.path, $0.text) })
}
