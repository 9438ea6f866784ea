import Foundation
import PackagePlugin

/// Compiles the checkout's `corpus/` folder into the `StarterDecks` module, so the `rote` binary
/// carries the starter decks wherever it is installed. Every corpus file is a declared input, so
/// editing a deck rebuilds the embedded copy and the two can never drift apart.
@main
struct EmbedStarterDecks: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let corpus = context.package.directoryURL.appending(path: "corpus")
        let output = context.pluginWorkDirectoryURL.appending(path: "StarterDeckFiles.swift")
        var inputs: [URL] = []
        if let walker = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                inputs.append(url)
            }
        }
        inputs.sort { $0.path < $1.path }
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) starter deck files",
                executable: try context.tool(named: "embed-files").url,
                arguments: [corpus.path, output.path],
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
