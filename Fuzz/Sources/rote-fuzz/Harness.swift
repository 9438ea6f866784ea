import Foundation

/// libFuzzer's entry points. One binary holds every target; `ROTE_FUZZ_TARGET` picks one, so a
/// single instrumented build serves `make fuzz` (Fuzz/run.sh). A property that fails stops
/// the process with `fatalError`, which libFuzzer reports as a crash and saves the input.
nonisolated(unsafe) var selectedTarget: FuzzTarget?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    let name = ProcessInfo.processInfo.environment["ROTE_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(
            Data(
                "ROTE_FUZZ_TARGET must be one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")); got '\(name)'\n"
                    .utf8))
        exit(2)
    }
    target.prepare()
    selectedTarget = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    selectedTarget?.run(data)
    return 0
}

enum FuzzTarget: String, CaseIterable {
    /// RoteModel's block YAML reader against Yams (libyaml): the same tree or no answer.
    case yamlBlock = "yaml-block"
    /// The canonical progress reader against the general reader: the same file or no answer.
    case progressReader = "progress-reader"
    /// Each merge driver on three arbitrary versions (NUL-separated): the merge laws.
    case mergeProgress = "merge-progress"
    case mergeProfile = "merge-profile"
    case mergeImmutable = "merge-immutable"
    case mergeLetters = "merge-letters"
    /// The importers on arbitrary files: no crash, and every file planned reads back.
    case seedJSON = "seed-json"
    case tableCSV = "table-csv"
    case apkg
    /// The launch-index reader on damaged bytes (with a checksum that matches, so damage
    /// reaches the sections): refused, or read without a crash.
    case launchIndex = "launch-index"
    /// `rote serve`'s request bodies and headers: decoded as the server decodes them, and what
    /// it does with them before touching a library.
    case webRequest = "web-request"

    func prepare() {
        switch self {
        case .seedJSON, .tableCSV, .apkg: ImportTargets.prepare()
        default: break
        }
    }

    func run(_ data: Data) {
        switch self {
        case .yamlBlock: ReaderTargets.yamlBlock(data)
        case .progressReader: ReaderTargets.progressReader(data)
        case .mergeProgress: MergeTargets.progress(data)
        case .mergeProfile: MergeTargets.profile(data)
        case .mergeImmutable: MergeTargets.immutable(data)
        case .mergeLetters: MergeTargets.letters(data)
        case .seedJSON: ImportTargets.seedJSON(data)
        case .tableCSV: ImportTargets.table(data)
        case .apkg: ImportTargets.apkg(data)
        case .launchIndex: IndexTargets.launchIndex(data)
        case .webRequest: WebTargets.request(data)
        }
    }
}

/// Stops the fuzzer with the failed property and the input's text, when it is text.
func propertyFailed(_ property: String, _ detail: @autoclosure () -> String) -> Never {
    fatalError("property failed: \(property)\n\(detail())")
}

/// libFuzzer's driver, started from the executable's entry point: SwiftPM links an executable
/// target with `main` defined as `<module>_main`, so the harness provides that and hands over
/// to libFuzzer, whose own `main` is then never linked.
@_silgen_name("LLVMFuzzerRunDriver")
func runLibFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("rote_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runLibFuzzerDriver(&count, &arguments) { bytes, size in fuzzOneInput(bytes, size) }
}
