import Foundation
import TestSupport
import Testing

/// A password written into a remote's URL never appears in what `rote` prints.
@Suite struct RemoteURLCLITests {
    static var binary: String { Checkout.productsDirectory.appending(path: "rote").path }

    // Nothing listens on the discard port of the loopback address: each command fails at once.
    static let url = "http://alice:hunter2@127.0.0.1:9/decks.git"

    @Test func syncCloneAndDeckCommandsHideAPasswordInAURL() async throws {
        let directory = TemporaryDirectory()
        await FixtureLibrary.write(into: directory)
        await Shell.run("git", ["remote", "add", "origin", Self.url], in: directory.url)
        for arguments in [
            ["sync"],
            ["clone", Self.url, directory.url.appending(path: "copy").path],
            ["deck", "add", Self.url],
        ] {
            let output = await Shell.run(Self.binary, arguments, in: directory.url)
            #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
            #expect(!(output.stdout + output.stderr).contains("hunter2"), "\(output.stdout)\(output.stderr)")
            #expect(output.stderr.contains("alice:***@127.0.0.1:9"), "\(output.stderr)")
        }
    }
}
