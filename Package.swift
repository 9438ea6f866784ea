// swift-tools-version:6.1
import PackageDescription

/// Every target is compiled in Swift 6 language mode with the upcoming features that keep
/// module boundaries honest.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Rote",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "rote", targets: ["rote"]),
        .library(
            name: "RoteKit",
            targets: [
                "RoteLibrary", "RoteModel", "Scheduling", "RoteStore", "RoteSync", "StudyData", "Study", "Launch",
                "Git", "Exchange", "AnkiImport", "Publishing", "Parallelism",
            ]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", exact: "0.9.20"),
        // FileDescriptor's read and write, the same on Linux and macOS (already in the graph through swift-nio).
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        // The web app of `rote serve`; swift-configuration support (a default trait) is not used.
        .package(
            url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: ["FullFoundation"]),
        // Child processes: the tests' `Shell.run` and erasure's `git gc`.
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        // Hummingbird's own dependencies, which `rote serve` also imports (its server's channel
        // handlers and logger): named here so every module Rote imports is one it declares.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibGit2",
            pkgConfig: "libgit2",
            providers: [.apt(["libgit2-dev"])]
        ),
        .target(name: "Git", dependencies: ["CLibGit2"], swiftSettings: strictSettings),
        // Anki collections are SQLite databases; only AnkiImport reads them.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Anki 2.1.50+ packages compress the collection and media with zstd; only AnkiImport reads them.
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        // Work spread over every core: `concurrentMap`, `inParallel` and the slots they fill.
        .target(name: "Parallelism", swiftSettings: strictSettings),
        .target(name: "RoteModel", dependencies: ["Yams"], swiftSettings: strictSettings),
        .target(name: "Scheduling", dependencies: ["RoteModel"], swiftSettings: strictSettings),
        .target(
            name: "RoteStore",
            dependencies: [
                "RoteModel", "Scheduling", "Git", "StarterCorpus", "Parallelism",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "RoteSync",
            dependencies: ["RoteModel", "Scheduling", "RoteStore", "Git"],
            swiftSettings: strictSettings
        ),
        // Content in and out: seed JSON and CSV/TSV imports, deck and learner exports, erasure.
        .target(
            name: "Exchange",
            dependencies: [
                "RoteModel", "RoteStore", "Git", "Parallelism",
                .product(name: "Subprocess", package: "swift-subprocess"),
            ],
            swiftSettings: strictSettings),
        // What planning, a session and stats read from a library, whoever holds it (the parsed
        // files or the launch index), and the content rules both apply: below Study and
        // LaunchIndex, so neither depends on the other.
        .target(
            name: "StudyData", dependencies: ["RoteModel", "Scheduling", "RoteStore"], swiftSettings: strictSettings),
        .target(
            name: "Study",
            dependencies: ["RoteModel", "Scheduling", "RoteStore", "StudyData", "Git", "Parallelism", "WebPages"],
            swiftSettings: strictSettings),
        // The launch index cache in .git/rote/: what a launch needs, memory-mapped.
        .target(
            name: "Launch", dependencies: ["RoteModel", "RoteStore", "Git", "StudyData", "Parallelism"],
            swiftSettings: strictSettings),
        // The one way to open a library: the checked launch index, and each operation (show,
        // record a review, change a status, stats…) reading only the files it needs. The CLI,
        // RoteKit users and `rote serve` all go through it.
        .target(
            name: "RoteLibrary",
            dependencies: [
                "RoteModel", "Scheduling", "RoteStore", "StudyData", "Study", "Launch", "Git", "Parallelism",
                "RoteSync",
                "Exchange", "Publishing", "AnkiImport",
            ],
            swiftSettings: strictSettings
        ),
        // Scores a tracing attempt against a letter's stroke template: pure, no I/O.
        .target(name: "LetterTracing", dependencies: ["RoteModel"], swiftSettings: strictSettings),
        // The pages of `rote serve` (web/), compiled into the binary like the starter decks.
        .target(
            name: "WebPages",
            swiftSettings: strictSettings,
            plugins: ["EmbedFiles"]
        ),
        // `rote serve`: the local web app, over the same Library and Study code as the CLI.
        .target(
            name: "RoteServer",
            dependencies: [
                "RoteLibrary", "RoteModel", "RoteStore", "Study", "StudyData", "Scheduling", "Launch", "LetterTracing",
                "WebPages", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "AnkiImport",
            dependencies: ["RoteModel", "Scheduling", "RoteStore", "Git", "CSQLite", "CZstd", "ZIPFoundation"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "Publishing",
            dependencies: ["RoteModel", "RoteStore", "Git"],
            swiftSettings: strictSettings
        ),
        // The starter decks in corpus/ are compiled into the binary, so an installed `rote`
        // can create a library without this checkout beside it.
        .target(
            name: "StarterCorpus",
            swiftSettings: strictSettings,
            plugins: ["EmbedFiles"]
        ),
        .executableTarget(name: "embed-files", swiftSettings: strictSettings),
        // `rote --version`: the checkout's git tag, stamped at build time.
        .target(name: "RoteVersion", swiftSettings: strictSettings, plugins: ["StampVersion"]),
        .plugin(name: "StampVersion", capability: .buildTool()),
        .plugin(
            name: "EmbedFiles",
            capability: .buildTool(),
            dependencies: ["embed-files"]
        ),
        .executableTarget(
            name: "rote",
            dependencies: [
                "RoteModel", "Scheduling", "RoteStore", "Git", "RoteSync", "StudyData", "Study", "Exchange",
                "AnkiImport", "Publishing", "Launch", "RoteLibrary", "RoteServer", "RoteVersion",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "make-demo-profile",
            dependencies: ["RoteModel", "RoteStore", "Scheduling"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "rote-bench",
            dependencies: [
                "RoteModel", "Scheduling", "RoteStore", "RoteSync", "Git", "Study", "Launch", "RoteLibrary",
                "LetterTracing", "Parallelism",
            ],
            path: "Benchmarks/Sources/rote-bench",
            swiftSettings: strictSettings
        ),
        .target(
            name: "TestSupport",
            dependencies: [
                "RoteStore", "Git", .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(name: "ParallelismTests", dependencies: ["Parallelism"], swiftSettings: strictSettings),
        .testTarget(name: "RoteModelTests", dependencies: ["RoteModel", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "SchedulingTests", dependencies: ["Scheduling", "RoteModel", "TestSupport"], exclude: ["Fixtures"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "RoteStoreTests", dependencies: ["RoteStore", "RoteModel", "Scheduling", "TestSupport", "Git"],
            swiftSettings: strictSettings),
        .testTarget(name: "GitTests", dependencies: ["Git", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "StudyTests", dependencies: ["Study", "StudyData", "RoteStore", "Scheduling", "TestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "RoteSyncTests",
            dependencies: ["RoteSync", "RoteStore", "RoteModel", "Scheduling", "Git", "TestSupport", "rote"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ExchangeTests",
            dependencies: ["Exchange", "RoteModel", "RoteStore", "RoteSync", "Git", "TestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "AnkiImportTests",
            dependencies: [
                "AnkiImport", "RoteStore", "RoteModel", "Scheduling", "TestSupport", "CSQLite", "rote", "ZIPFoundation",
            ],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PublishingTests",
            dependencies: ["Publishing", "RoteStore", "RoteModel", "Git", "TestSupport", "rote"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "LaunchTests",
            dependencies: [
                "Launch", "RoteLibrary", "Git", "StudyData", "Study", "RoteStore", "RoteSync", "RoteModel",
                "TestSupport",
            ], swiftSettings: strictSettings),
        .testTarget(
            name: "RoteLibraryTests",
            dependencies: [
                "RoteLibrary", "Launch", "StudyData", "Study", "RoteStore", "RoteModel", "Scheduling", "TestSupport",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "LetterTracingTests", dependencies: ["LetterTracing", "RoteModel"], swiftSettings: strictSettings),
        .testTarget(
            name: "RoteServerTests",
            dependencies: [
                "RoteServer", "RoteLibrary", "RoteModel", "RoteStore", "StudyData", "Study", "TestSupport", "Git",
                "WebPages", .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "RoteCLITests",
            dependencies: ["TestSupport", "RoteModel", "RoteStore", "StudyData", "Study", "rote"],
            swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)

// The modules that read, plan and write a library are optimised in debug builds too. The test
// suite parses libraries in process and runs `rote` some thousand times: unoptimised, this code
// took most of the suite's CPU (the suite ran in 715 s, and in 474 s with it optimised, on two
// cores). The command line, the server, the importers and the tests stay unoptimised: they are
// not where the time goes, and they compile faster so. `ROTE_DEBUG_UNOPTIMISED=1 swift build`
// turns it off for a debugger session.
if Context.environment["ROTE_DEBUG_UNOPTIMISED"] != "1" {
    let hot: Set<String> = [
        "Parallelism", "RoteModel", "Scheduling", "Git", "RoteStore", "RoteSync", "StudyData", "Study", "Launch",
        "RoteLibrary",
    ]
    for target in package.targets where hot.contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-O"], .when(configuration: .debug))]
    }
}

// `make fuzz` (ROTE_FUZZ=1, built in .build/fuzz): the targets the fuzz harness reaches are
// compiled with libFuzzer's coverage instrumentation (and -enable-testing, so the harness can
// compare internal readers), and `rote-fuzz` links libFuzzer's driver. Ordinary builds never
// see any of it. Fuzz/README.md says how to run one target.
if Context.environment["ROTE_FUZZ"] == "1" {
    let instrumented: Set<String> = [
        "Parallelism", "RoteModel", "Scheduling", "Git", "RoteStore", "RoteSync", "Exchange", "AnkiImport", "StudyData",
        "Study", "Launch", "LetterTracing", "RoteLibrary", "RoteServer",
    ]
    for target in package.targets where instrumented.contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize=fuzzer", "-enable-testing"])]
    }
    package.targets.append(
        .executableTarget(
            name: "rote-fuzz",
            dependencies: [
                "RoteModel", "Scheduling", "RoteStore", "RoteSync", "Exchange", "AnkiImport", "StudyData", "Launch",
                "LetterTracing", "RoteLibrary", "RoteServer", "Yams",
            ],
            path: "Fuzz/Sources/rote-fuzz",
            swiftSettings: strictSettings + [.unsafeFlags(["-sanitize=fuzzer", "-parse-as-library"])],
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer"])]
        ))
    package.products.append(.executable(name: "rote-fuzz", targets: ["rote-fuzz"]))
}
