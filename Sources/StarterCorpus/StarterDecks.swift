/// The starter decks shipped with Rote: every file of the checkout's `corpus/` folder, compiled
/// into the binary by the EmbedStarterDecks build plugin.
package enum StarterDecks {
    /// Each file's path relative to `corpus/` (e.g. `english-a1/run.yaml`) and its text.
    package static var files: [(path: String, text: String)] { starterDeckFileList }
}
