import Foundation
import TestSupport
import Testing

/// `docs/architecture.md` names every module of `Package.swift` and what each imports, so a
/// reader can trust its graph: a target added, removed or given a new dependency without
/// the page changing fails here.
@Suite struct ArchitectureDocTests {
    /// Each non-test target of `Package.swift` → the targets (not products) it depends on.
    static func targets() throws -> [String: Set<String>] {
        try declarations().mapValues(\.targets)
    }

    /// What one target of `Package.swift` declares: its folder, and the targets and products
    /// it depends on.
    struct Declaration {
        var path: String
        /// A build plugin depends on the tools it runs, which it never imports.
        var isPlugin: Bool
        /// A `.target`: a module others link, never a program of its own.
        var isLibrary = false
        var targets: Set<String> = []
        var products: Set<String> = []
    }

    static func declarations() throws -> [String: Declaration] {
        let text = try String(contentsOf: Checkout.root.appending(path: "Package.swift"), encoding: .utf8)
        var targets: [String: Declaration] = [:]
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
            var declaration = Declaration(path: "Sources/\(name)", isPlugin: match.output[1].substring == "plugin")
            declaration.isLibrary = match.output[1].substring == "target"
            if let path = call.firstMatch(of: try Regex(#"path:\s*"([^"]+)""#))?.output[1].substring {
                declaration.path = String(path)
            }
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
                for product in body.matches(of: try Regex(#"\.product\(\s*name:\s*"([^"]+)""#)) {
                    if let product = product.output[1].substring { declaration.products.insert(String(product)) }
                }
                let withoutProducts = body.replacing(try Regex(#"\.product\([^)]*\)"#), with: "")
                for quoted in withoutProducts.matches(of: try Regex(#""([^"]+)""#)) {
                    if let dependency = quoted.output[1].substring { declaration.targets.insert(String(dependency)) }
                }
            }
            targets[name] = declaration
        }
        return targets
    }

    /// Issue #32 item 7: a module's imports are what `Package.swift` declares for it, no more
    /// (an import of a module that arrives only through another target's dependencies, a
    /// dependency package's module included) and no less (a target dependency nothing
    /// imports). Products count when they are imported by their own name, as this package's
    /// all are. No module re-exports another (`@_exported`).
    /// The modules that come with Swift and the system, which no target declares.
    static let toolchainModules: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Glibc", "Musl", "Darwin", "System",
        "Synchronization", "RegexBuilder", "PackagePlugin", "Testing", "XCTest",
    ]

    @Test func everyTargetImportsWhatItDeclares() throws {
        let declarations = try Self.declarations()
        let importLine = try Regex(
            #"^\s*(?:@\w+\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)"#
        )
        for (name, declaration) in declarations where !name.hasPrefix("rote-fuzz") {
            let folder = Checkout.root.appending(path: declaration.path)
            guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
                continue
            }
            var imported: Set<String> = []
            var reexports: Set<String> = []
            for case let file as URL in files where file.pathExtension == "swift" {
                for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                    if line.hasPrefix("@_exported import ") { reexports.insert(file.lastPathComponent) }
                    if let module = try importLine.wholeMatch(in: String(line))?.output[1].substring {
                        imported.insert(String(module))
                    }
                }
            }
            let undeclared = imported.subtracting(Self.toolchainModules).subtracting(declaration.targets)
                .subtracting(declaration.products).subtracting([name])
            #expect(undeclared.isEmpty, "\(name) imports \(undeclared.sorted()) without declaring it in Package.swift")
            #expect(
                reexports.isEmpty, "\(name) re-exports \(reexports.sorted()) (`@_exported`); import it where it is used"
            )
            let unused = declaration.targets.union(declaration.products).subtracting(imported)
            #expect(
                unused.isEmpty || declaration.isPlugin,
                "\(name) declares \(unused.sorted()) in Package.swift and never imports it")
        }
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

    /// Issue #32 item 2: commands parse, make their `Library` call, and print. The git behind a
    /// library and its writer (`Repository`, `LibraryGit`, `LibraryTransaction`, `LibraryGitPool`)
    /// never appear in `Sources/rote`: a command that needs one needs a `Library` operation.
    @Test func commandsNeverReachPastLibraryToGit() throws {
        let names = try Regex(#"\b(Repository|LibraryGit|LibraryTransaction|LibraryGitPool|PendingCommit)\b"#)
        for line in try Self.sourceLines(under: "Sources/rote") where !line.isComment {
            let found = line.text.matches(of: names).compactMap { $0.output[1].substring.map(String.init) }
            #expect(
                found.isEmpty,
                "Sources/rote/\(line.file):\(line.number) uses \(found) — add a Library operation instead")
        }
    }

    /// A line of a target's Swift sources: its file's name, its 1-based number and its text.
    struct SourceLine {
        var file: String
        var number: Int
        var text: Substring
        /// True for a line that is a comment alone.
        var isComment: Bool { text.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
    }

    /// Every line of the Swift files under `path` (a target's folder), file by file.
    static func sourceLines(under path: String) throws -> [SourceLine] {
        let folder = Checkout.root.appending(path: path)
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        var lines: [SourceLine] = []
        for case let file as URL in files where file.pathExtension == "swift" {
            for (number, text) in try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false
            ).enumerated() {
                lines.append(SourceLine(file: file.lastPathComponent, number: number + 1, text: text))
            }
        }
        return lines
    }

    /// Issue #32 item 5: library code never prints, since an app linking RoteKit could not
    /// silence it. What it has to say goes to the caller: an error, a report, or a notice
    /// (`LibraryNotices`), which `rote` routes to the terminal.
    @Test func libraryCodeNeverPrints() throws {
        let printing = try Regex(#"FileHandle\.standard(Error|Output)\.write|(^|[^\w.])print\(|\bfputs\("#)
        // TestSupport is the tests' own, and prints nothing of a library's.
        for (name, declaration) in try Self.declarations() where declaration.isLibrary && name != "TestSupport" {
            for line in try Self.sourceLines(under: declaration.path) where !line.isComment {
                #expect(
                    !line.text.contains(printing),
                    "\(name): \(line.file):\(line.number) prints; send it to the caller or LibraryNotices")
            }
        }
    }

    /// Issue #32 item 5: every error a library can throw is a `RoteError` (a code, a message
    /// that says what to do, a cause). Three lower-level errors stay what they are, since
    /// `LibraryError.surfaced` words each as a `LibraryError` with it as the cause: libgit2's
    /// (`GitError`, in `Git`, which is below the module that declares `RoteError`), the lock's
    /// `Busy` and `AtomicFile.WriteError`.
    @Test func everyPublicErrorOfALibraryIsARoteError() throws {
        let causes: Set<String> = ["GitError", "Busy", "WriteError"]
        let declaration = try Regex(
            #"^\s*(?:public|package)\s+(?:final\s+)?(?:struct|enum|class)\s+(\w+)\s*:\s*([^{]*)\{"#)
        var checked = 0
        // RoteServer's `WebError` is not a library's error but the HTTP answer made of one.
        for (name, target) in try Self.declarations()
        where target.isLibrary && !["TestSupport", "RoteServer"].contains(name) {
            for line in try Self.sourceLines(under: target.path) {
                guard let match = line.text.firstMatch(of: declaration),
                    let type = match.output[1].substring.map(String.init),
                    let conformances = match.output[2].substring?.split(separator: ",").map({
                        $0.trimmingCharacters(in: .whitespaces)
                    }),
                    conformances.contains("Error") || conformances.contains("RoteError")
                else { continue }
                checked += 1
                #expect(
                    conformances.contains("RoteError") || causes.contains(type),
                    "\(name): \(line.file):\(line.number) declares \(type), an Error that is not a RoteError: give it a code and a message, or throw a LibraryError with it as the cause"
                )
            }
        }
        #expect(checked >= 10, "the scan found \(checked) public errors; it is meant to see every one")
    }

    /// Issue #32 item 7: no module holds a type of its own name, which makes `WebPages.files`
    /// read as either and stops a file inside from naming the module.
    @Test func noModuleIsNamedLikeATypeInsideIt() throws {
        for (name, target) in try Self.declarations() where !target.isPlugin {
            let declaration = try Regex(#"^\s*(?:\w+\s+)*(?:enum|struct|class|actor|protocol)\s+"# + name + #"\b"#)
            for line in try Self.sourceLines(under: target.path) {
                #expect(
                    !line.text.contains(declaration),
                    "\(target.path)/\(line.file):\(line.number) declares a type named like its module \(name)")
            }
        }
    }
    /// Issue #32 item 7: `public` is only what an app embedding RoteKit needs, and
    /// docs/architecture.md ("What RoteKit makes public") names every public type, module by
    /// module; what crosses modules inside Rote is `package`.
    @Test func publicTypesAreTheOnesListed() throws {
        let text = try String(contentsOf: Checkout.root.appending(path: "docs/architecture.md"), encoding: .utf8)
        let section = try #require(
            text.range(of: "### What RoteKit makes public").map { text[$0.upperBound...] }
                .map { $0[..<($0.range(of: "\n### ")?.lowerBound ?? $0.endIndex)] })
        let row = try Regex(#"^\| `(\w+)` \| (.*) \|$"#)
        var listed: [String: Set<String>] = [:]
        for line in section.split(separator: "\n") {
            guard let match = line.firstMatch(of: row), let module = match.output[1].substring,
                let types = match.output[2].substring
            else { continue }
            listed[String(module)] = Set(types.split(separator: ", ").map { $0.trimmingCharacters(in: ["`"]) })
        }
        #expect(listed["RoteLibrary"]?.contains("Library") == true, "the table was not found or lists no Library")
        let declaration = try Regex(
            #"^(?:@\w+(?:\([^)]*\))?\s+)*public\s+(?:final\s+)?(?:indirect\s+)?(?:struct|class|enum|protocol|actor|typealias)\s+(\w+)"#
        )
        var declared: [String: Set<String>] = [:]
        for (name, target) in try Self.declarations() where target.isLibrary && name != "TestSupport" {
            for line in try Self.sourceLines(under: target.path) {
                guard let type = line.text.firstMatch(of: declaration)?.output[1].substring else { continue }
                declared[name, default: []].insert(String(type))
            }
        }
        for module in Set(listed.keys).union(declared.keys).sorted() {
            let made = declared[module] ?? []
            let named = listed[module] ?? []
            #expect(
                made.subtracting(named).isEmpty,
                "\(module) makes \(made.subtracting(named).sorted()) public without docs/architecture.md listing them: make them package, or list them if an app embedding RoteKit needs them"
            )
            #expect(
                named.subtracting(made).isEmpty,
                "docs/architecture.md lists \(named.subtracting(made).sorted()) as public in \(module), and the sources do not make them so"
            )
        }
    }
    /// Issue #32 item 7: `LibraryPaths` spells every path of a library's content and its
    /// learners' folders, so a reader, a writer and the validator cannot disagree about them.
    @Test func libraryPathsSpellEveryPath() throws {
        let spelled = try Regex(#"(corpus|profiles)/\\\(|"(corpus|profiles)/?"|"/?(progress|sessions)/"|"profiles/\*"#)
        var scanned = 0
        for (name, target) in try Self.declarations() where !target.isPlugin && name != "TestSupport" {
            for line in try Self.sourceLines(under: target.path) where !line.isComment {
                guard line.file != "LibraryPaths.swift" else { continue }
                scanned += 1
                #expect(
                    !line.text.contains(spelled),
                    "\(name): \(line.file):\(line.number) spells a library path; use LibraryPaths")
            }
        }
        #expect(scanned > 10_000, "the scan read \(scanned) lines; it is meant to read every source file")
    }
    /// Issue #32 item 1: the git behind a library, the pool that keeps one open and the
    /// deferred commits' journals are internal to RoteStore, so every other module writes
    /// through a `LibraryTransaction`, which holds the lock.
    @Test func theWritePathIsInternalToRoteStore() throws {
        let internalTypes = ["LibraryGit", "LibraryGitPool", "PendingCommit"]
        let declaration = try Regex(
            #"^(\w+\s+)*(final\s+)?(class|struct|enum)\s+("# + internalTypes.joined(separator: "|") + #")\b"#)
        var found: Set<String> = []
        for (name, target) in try Self.declarations() where !target.isPlugin {
            for line in try Self.sourceLines(under: target.path) {
                guard let match = line.text.firstMatch(of: declaration) else { continue }
                let type = String(line.text[match.range].split(separator: " ").last ?? "")
                found.insert(type)
                #expect(name == "RoteStore", "\(name): \(line.file):\(line.number) declares \(type) outside RoteStore")
                #expect(
                    !line.text.hasPrefix("package") && !line.text.hasPrefix("public"),
                    "\(line.file):\(line.number): \(type) is visible outside RoteStore; other modules write through LibraryTransaction"
                )
            }
        }
        #expect(found == Set(internalTypes), "the scan found \(found.sorted()) of \(internalTypes)")
    }
}
