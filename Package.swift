// swift-tools-version: 6.1
import PackageDescription

// Dependency direction (arrows point at what a target uses; every import is declared):
//   ChatEvalCLI → {Runner, Compare, Report, Llama, Git, Suites, Store, Runtime, Core}
//   ChatEvalRunner → {Suites, Store, Grading, Runtime, Core}   ChatEvalReport → {Compare, Store, Core}
//   ChatEvalCompare → {Store, Core}   ChatEvalSuites → {Grading, Core}   ChatEvalStore → Core
//   ChatEvalLlama → {Runtime, Core, CLlama}   ChatEvalGit → {Core, CGit2}   ChatEvalGrading → {Core, CTextCat}
//   C modules have one importer each; ChatEvalCore imports Foundation only.
let package = Package(
    name: "ChatEval",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "chateval", targets: ["ChatEvalCLI"]),
        .executable(name: "chateval-bench", targets: ["ChatEvalBench"]),
        .executable(name: "chateval-grading-bench", targets: ["ChatEvalGradingBench"]),
        .executable(name: "chateval-fuzz", targets: ["ChatEvalFuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        // Tests only (ChatEvalTestKit): running programs without pipe deadlocks.
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.5.0"),
    ],
    targets: [
        // C modules: a module map over a system library, each imported by exactly one Swift target.
        .systemLibrary(name: "CLlama", pkgConfig: "llama"),
        .systemLibrary(name: "CGit2", pkgConfig: "libgit2", providers: [.apt(["libgit2-dev"])]),
        .systemLibrary(name: "CTextCat", pkgConfig: "libexttextcat", providers: [.apt(["libexttextcat-dev", "libexttextcat-data"])]),

        // Pure value types and algorithms: messages, options, metrics, statistics. No I/O.
        .target(name: "ChatEvalCore"),
        // The runtime contract (a turn streams .chunk/.info events), the conversation replayer,
        // process-memory probes.
        .target(name: "ChatEvalRuntime", dependencies: ["ChatEvalCore"]),
        // llama.cpp in-process runtime: owns every llama.cpp pointer.
        .target(name: "ChatEvalLlama", dependencies: ["ChatEvalRuntime", "ChatEvalCore", "CLlama", .product(name: "Crypto", package: "swift-crypto")]),
        // libgit2: the commit, branch and dirty state a run is recorded against; git notes.
        .target(name: "ChatEvalGit", dependencies: ["ChatEvalCore", "CGit2"]),
        // Deterministic rule-based checks (text, JSON, IFEval, performance) and their catalogue.
        .target(name: "ChatEvalGrading", dependencies: ["ChatEvalCore", "CTextCat"]),
        // YAML suites → Core values and check definitions, with file/line/column errors.
        .target(name: "ChatEvalSuites", dependencies: ["ChatEvalGrading", "ChatEvalCore", .product(name: "Yams", package: "Yams")]),
        // Result files: the run record schema, the journal, atomic writes, machine fingerprint.
        .target(name: "ChatEvalStore", dependencies: ["ChatEvalCore", .product(name: "Crypto", package: "swift-crypto")]),
        // Compares runs: per-metric rank tests with Holm's adjustment, thresholds, check changes.
        .target(name: "ChatEvalCompare", dependencies: ["ChatEvalCore", "ChatEvalStore"]),
        // Runs a plan of suites against a runtime, recording every turn as it goes.
        .target(name: "ChatEvalRunner", dependencies: ["ChatEvalSuites", "ChatEvalStore", "ChatEvalGrading", "ChatEvalRuntime", "ChatEvalCore"]),
        // Human-readable tables and summaries.
        .target(name: "ChatEvalReport", dependencies: ["ChatEvalCore", "ChatEvalStore", "ChatEvalCompare"]),
        // Fakes shared by tests.
        .target(name: "ChatEvalTestKit", dependencies: [
            "ChatEvalRuntime", "ChatEvalCore", .product(name: "Subprocess", package: "swift-subprocess"),
            .product(name: "SystemPackage", package: "swift-system"),
        ]),

        .executableTarget(
            name: "ChatEvalCLI",
            dependencies: [
                "ChatEvalLlama", "ChatEvalRunner", "ChatEvalReport", "ChatEvalGit", "ChatEvalCompare",
                "ChatEvalSuites", "ChatEvalStore", "ChatEvalRuntime", "ChatEvalCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "ChatEvalBench",
            dependencies: [
                "ChatEvalLlama", "ChatEvalReport", "ChatEvalRuntime", "ChatEvalCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Fuzzing what users and models control: suites, answers files, project files. A bounded
        // mutational fuzzer by default (make test); libFuzzer with -DCHATEVAL_LIBFUZZER (make fuzz).
        .executableTarget(name: "ChatEvalFuzz", dependencies: ["ChatEvalSuites", "ChatEvalRunner", "ChatEvalGrading", "ChatEvalCore"]),
        // Grading throughput: 10,000 answers against a 20-check turn.
        .executableTarget(name: "ChatEvalGradingBench", dependencies: ["ChatEvalGrading"]),

        .testTarget(name: "ChatEvalCoreTests", dependencies: ["ChatEvalCore"]),
        .testTarget(name: "ChatEvalRuntimeTests", dependencies: ["ChatEvalRuntime", "ChatEvalCore", "ChatEvalTestKit"]),
        .testTarget(name: "ChatEvalSuitesTests", dependencies: ["ChatEvalSuites", "ChatEvalGrading", "ChatEvalCore"]),
        .testTarget(name: "ChatEvalLlamaTests", dependencies: ["ChatEvalLlama", "ChatEvalRuntime", "ChatEvalCore", "ChatEvalTestKit"]),
        .testTarget(name: "ChatEvalGitTests", dependencies: ["ChatEvalGit", "ChatEvalCore", "ChatEvalTestKit"]),
        .testTarget(name: "ChatEvalRunnerTests", dependencies: [
            "ChatEvalRunner", "ChatEvalSuites", "ChatEvalStore", "ChatEvalRuntime", "ChatEvalCore", "ChatEvalTestKit",
        ]),
        .testTarget(name: "ChatEvalStoreTests", dependencies: ["ChatEvalStore", "ChatEvalCore", "ChatEvalTestKit"]),
        .testTarget(name: "ChatEvalCompareTests", dependencies: ["ChatEvalCompare", "ChatEvalStore", "ChatEvalCore", "ChatEvalTestKit"]),
        .testTarget(name: "ChatEvalGradingTests", dependencies: ["ChatEvalGrading"]),
        .testTarget(name: "ChatEvalCLITests", dependencies: ["ChatEvalCLI", "ChatEvalTestKit"]),
    ],
    swiftLanguageModes: [.v6]
)
