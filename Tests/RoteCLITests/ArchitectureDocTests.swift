import Foundation
import TestSupport
import Testing

/// `docs/architecture.md` names every module of `Package.swift` and what each imports, so a
/// reader can trust its graph: a target added, removed or given a new dependency without
/// the page changing fails here.
@Suite struct ArchitectureDocTests {
    /// Each non-test target of `Package.swift` → the targets (not products) it depends on.
    static func targets() throws -> [String: Set<String>] {
        let text = try String(contentsOf: Checkout.root.appending(path: "Package.swift"), encoding: .utf8)
        var targets: [String: Set<String>] = [:]
        let starts = try Regex(#"\.(target|executableTarget|systemLibrary|plugin)\(\s*name:\s*"([^"]+)""#)
        for match in text.matches(of: starts) {
            guard let name = match.output[2].substring.map(String.init) else { continue }
            // The call's text up to its closing parenthesis.
            var depth = 0
            var end = match.range.lowerBound
            for index in text[match.range.lowerBound...].indices {
                if text[index] == "(" { depth += 1 }
                if text[index] == ")" {
                    depth -= 1
                    if depth == 0 {
                        end = index
                        break
                    }
                }
            }
            let call = String(text[match.range.lowerBound...end])
            var dependencies: Set<String> = []
            if let list = call.firstRange(of: "dependencies: [") {
                var depth = 1
                var body = ""
                for character in call[list.upperBound...] {
                    if character == "[" { depth += 1 }
                    if character == "]" {
                        depth -= 1
                        if depth == 0 { break }
                    }
                    body.append(character)
                }
                let withoutProducts = body.replacing(try Regex(#"\.product\([^)]*\)"#), with: "")
                for quoted in withoutProducts.matches(of: try Regex(#""([^"]+)""#)) {
                    if let dependency = quoted.output[1].substring { dependencies.insert(String(dependency)) }
                }
            }
            targets[name] = dependencies
        }
        return targets
    }

    @Test func theModuleGraphIsPackageSwifts() throws {
        let targets = try Self.targets()
        let page = try String(contentsOf: Checkout.root.appending(path: "docs/architecture.md"), encoding: .utf8)
        // The graph's lines: "- `Module` → `A`, `B`" (or "→ nothing").
        var documented: [String: Set<String>] = [:]
        for line in page.split(separator: "\n") where line.hasPrefix("- `") && line.contains(" → ") {
            let parts = line.dropFirst(2).components(separatedBy: " → ")
            let name = parts[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let imports =
                parts[1] == "nothing"
                ? []
                : parts[1].components(separatedBy: ", ").map {
                    $0.trimmingCharacters(in: CharacterSet(charactersIn: "` "))
                }
            documented[name] = Set(imports)
        }
        #expect(!targets.isEmpty)
        for (name, dependencies) in targets where !name.hasPrefix("rote-fuzz") {
            #expect(
                documented[name] == dependencies,
                "docs/architecture.md, the module graph: `\(name)` → \(dependencies.sorted())")
        }
        for name in documented.keys {
            #expect(targets[name] != nil, "docs/architecture.md names `\(name)`, which Package.swift has no target for")
        }
    }
}
