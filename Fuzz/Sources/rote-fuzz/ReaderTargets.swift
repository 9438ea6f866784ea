import Foundation
import Yams

@testable import RoteModel

enum ReaderTargets {
    /// On any text the block reader gives up or builds exactly the tree `Yams.compose` builds.
    static func yamlBlock(_ data: Data) {
        guard let text = String(data: data, encoding: .utf8) else { return }
        guard let fast = BlockYAMLReader.parse(text) else { return }
        let reference: Node
        do {
            guard let node = try Yams.compose(yaml: text) else {
                propertyFailed("the block reader read a document libyaml finds empty", text)
            }
            reference = node
        } catch {
            propertyFailed("the block reader read what libyaml refuses: \(error)", text)
        }
        let mine = BlockYAMLReader.describe(fast)
        let theirs = BlockYAMLReader.describe(reference)
        if mine != theirs {
            let first =
                zip(mine, theirs).first { $0 != $1 }.map { "\($0) vs \($1)" }
                ?? "\(mine.count) vs \(theirs.count) nodes"
            propertyFailed("the block reader and libyaml built different trees: \(first)", text)
        }
    }

    /// On any bytes the canonical progress reader gives up, or returns what the general
    /// reader returns with no diagnostic at all; `scanCanonical` agrees on its summary.
    static func progressReader(_ data: Data) {
        guard let fast = ProgressFile.decodeCanonical(data) else { return }
        guard let text = String(data: data, encoding: .utf8) else {
            propertyFailed("the canonical reader read bytes that are not UTF-8", data.base64EncodedString())
        }
        let (node, problems) = YAMLSource.parse(text, path: "p.yaml")
        guard let node, problems.isEmpty else {
            propertyFailed("the canonical reader read a file the general reader refuses: \(problems)", text)
        }
        let (general, diagnostics) = ProgressFile.decode(node, path: "p.yaml")
        guard diagnostics.isEmpty, let general else {
            propertyFailed("the general reader complains: \(diagnostics)", text)
        }
        if general != fast { propertyFailed("the readers disagree", text) }
        var scannedReviews: [ReviewEvent] = []
        let scanned = data.withUnsafeBytes { ProgressFile.scanCanonical(bytes: $0) { scannedReviews.append($0.event) } }
        if scanned != nil,
            scannedReviews.map(\.at) != fast.reviews.map(\.at)
                || scannedReviews.map(\.grade) != fast.reviews.map(\.grade)
                || scannedReviews.map(\.id) != fast.reviews.map(\.id)
                || scannedReviews.map(\.ms) != fast.reviews.map(\.ms)
        {
            propertyFailed("scanCanonical reports other reviews", text)
        }
    }
}
