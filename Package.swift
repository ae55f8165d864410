// swift-tools-version: 6.1
import PackageDescription

// Dependency direction (arrows point at what a target uses):
//   ChatEvalCLI → {Runner, Report, Llama, Git} → {Suites, Store, Runtime} → ChatEvalCore
//   ChatEvalLlama → CLlama, ChatEvalGit → CGit2, ChatEvalGrading → {CTextCat, CPCRE2} (one importer each);
//   ChatEvalCore imports Foundation only.
let package = Package(
    name: "ChatEval",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "chateval", targets: ["ChatEvalCLI"]),
        .executable(name: "chateval-bench", targets: ["ChatEvalBench"]),
        .executable(name: "chateval-grading-bench", targets: ["ChatEvalGradingBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
    ],
    targets: [
        // C modules: a module map over a system library, each imported by exactly one Swift target.
        .systemLibrary(name: "CLlama", pkgConfig: "llama"),
        .systemLibrary(name: "CGit2", pkgConfig: "libgit2", providers: [.apt(["libgit2-dev"])]),
        .systemLibrary(name: "CTextCat", pkgConfig: "libexttextcat", providers: [.apt(["libexttextcat-dev", "libexttextcat-data"])]),
        // PCRE2's 32-bit library: grading matches on code points, which are UTF-32 code units.
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-32", providers: [.apt(["libpcre2-dev"])]),

        // Pure value types and algorithms: messages, options, metrics, statistics. No I/O.
        .target(name: "ChatEvalCore"),
        // The runtime contract (a turn streams .chunk/.info events), the conversation replayer,
        // process-memory probes.
        .target(name: "ChatEvalRuntime", dependencies: ["ChatEvalCore"]),
        // llama.cpp in-process runtime: owns every llama.cpp pointer.
        .target(name: "ChatEvalLlama", dependencies: ["ChatEvalRuntime", "CLlama", .product(name: "Crypto", package: "swift-crypto")]),
        // libgit2: the commit, branch and dirty state a run is recorded against; git notes.
        .target(name: "ChatEvalGit", dependencies: ["ChatEvalCore", "CGit2"]),
        // Deterministic rule-based checks (text, JSON, IFEval, performance) and their catalogue.
        .target(name: "ChatEvalGrading", dependencies: ["ChatEvalCore", "CTextCat", "CPCRE2"]),
        // YAML suites → Core values and check definitions, with file/line/column errors.
        .target(name: "ChatEvalSuites", dependencies: ["ChatEvalGrading", .product(name: "Yams", package: "Yams")]),
        // Result files: the run record schema, the journal, atomic writes, machine fingerprint.
        .target(name: "ChatEvalStore", dependencies: ["ChatEvalRuntime", .product(name: "Crypto", package: "swift-crypto")]),
        // Runs a plan of suites against a runtime, recording every turn as it goes.
        .target(name: "ChatEvalRunner", dependencies: ["ChatEvalSuites", "ChatEvalStore", "ChatEvalGrading"]),
        // Human-readable tables and summaries.
        .target(name: "ChatEvalReport", dependencies: ["ChatEvalCore", "ChatEvalRuntime", "ChatEvalStore"]),
        // Fakes shared by tests.
        .target(name: "ChatEvalTestKit", dependencies: ["ChatEvalRuntime"]),

        .executableTarget(
            name: "ChatEvalCLI",
            dependencies: [
                "ChatEvalLlama", "ChatEvalRunner", "ChatEvalReport", "ChatEvalGit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "ChatEvalBench",
            dependencies: [
                "ChatEvalLlama", "ChatEvalReport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Grading throughput: 10,000 answers against a 20-check turn.
        .executableTarget(name: "ChatEvalGradingBench", dependencies: ["ChatEvalGrading"]),

        .testTarget(name: "ChatEvalCoreTests", dependencies: ["ChatEvalCore"]),
        .testTarget(name: "ChatEvalRuntimeTests", dependencies: ["ChatEvalRuntime", "ChatEvalTestKit"]),
        .testTarget(name: "ChatEvalSuitesTests", dependencies: ["ChatEvalSuites", "ChatEvalGrading"]),
        .testTarget(name: "ChatEvalLlamaTests", dependencies: ["ChatEvalLlama"]),
        .testTarget(name: "ChatEvalGitTests", dependencies: ["ChatEvalGit", "ChatEvalCore"]),
        .testTarget(name: "ChatEvalRunnerTests", dependencies: ["ChatEvalRunner", "ChatEvalTestKit"]),
        .testTarget(name: "ChatEvalStoreTests", dependencies: ["ChatEvalStore"]),
        .testTarget(name: "ChatEvalGradingTests", dependencies: ["ChatEvalGrading"]),
        .testTarget(name: "ChatEvalCLITests", dependencies: ["ChatEvalCLI"]),
    ],
    swiftLanguageModes: [.v6]
)
