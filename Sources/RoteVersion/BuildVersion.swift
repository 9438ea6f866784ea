/// The version this binary was built from, as `rote --version` prints it: the checkout's
/// `git describe --tags` without the leading "v", stamped by the StampVersion plugin. Its own
/// module, so a new commit recompiles one line instead of the command-line tool.
package enum BuildVersion {
    package static let current = stampedVersion
}
