import ArgumentParser
import Foundation
import RoteLibrary
import RoteStore

struct DeviceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "This clone's random device id, and a name for it only you see.",
        discussion: """
            Reviews, session files and commits name the device they were made on by a random id \
            (dev- and 12 hex digits), made once per clone and kept in .git/rote/device-id — never \
            the host name. --name gives this device a name you recognise (`rote log` and \
            `rote history` show it for this device's sessions); it is kept in \
            .git/rote/device-name and never committed or synced.
            """
    )

    @ParentCommand var rote: RoteCommand

    @Option(help: ArgumentHelp("Name this device (kept in this clone only).", valueName: "name"))
    var name: String?

    @Flag(help: "Forget this device's name.")
    var clearName = false

    func run() throws {
        let library = try CommandContext.library(rote.global)
        if clearName {
            try library.nameDevice(nil)
        } else if let name {
            try library.nameDevice(name)
        }
        print("device id: \(library.deviceID) (random, made for this clone; committed with each review)")
        print("device name: \(library.deviceName ?? "none") (local: never committed; set with --name)")
    }

    /// How a device id from a file or commit is shown: this device's local name when it is
    /// this device and has one, else the id.
    static func label(_ id: String, root: URL) -> String {
        guard id == DeviceIdentity.id(root: root), let name = DeviceIdentity.localName(root: root) else { return id }
        return name
    }
}
