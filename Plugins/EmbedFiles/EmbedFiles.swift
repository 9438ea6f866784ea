import Foundation
import PackagePlugin

/// Compiles a folder of the checkout into a module, so the `rote` binary carries it wherever
/// it is installed: `corpus/` (the starter decks) into `StarterCorpus`, `web/` (the pages of
/// `rote serve`) into `WebPages`. Every file is a declared input, so editing one rebuilds the
/// embedded copy and the two can never drift apart.
@main
struct EmbedFiles: BuildToolPlugin {
    /// Each embedding target's folder and the name of the list it gets.
    static let folders = ["StarterCorpus": ("corpus", "starterDeckFileList"), "WebPages": ("web", "webPageFileList")]

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let (folderName, listName) = Self.folders[target.name] else {
            throw PluginError(
                message: "EmbedFiles knows no folder for target \(target.name); add it to EmbedFiles.folders")
        }
        let folder = context.package.directoryURL.appending(path: folderName)
        let output = context.pluginWorkDirectoryURL.appending(path: "\(target.name)Files.swift")
        var inputs: [URL] = []
        if let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let url as URL in walker
            where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                inputs.append(url)
            }
        }
        inputs.sort { $0.path < $1.path }
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) files of \(folderName)/",
                executable: try context.tool(named: "embed-files").url,
                arguments: [folder.path, output.path, listName],
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}

struct PluginError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
