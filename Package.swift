// swift-tools-version: 6.1
import PackageDescription

// Dependency direction (arrows point at what a target uses; every import is declared):
//   ChatEvalCLI → {Workspace; Report, History, Suites, Store, Core for the types its options name; Llama and Git for --version}
//   ChatEvalWorkspace → {Runner, Compare, Report, History, Index, Llama, OpenAI, Git, Suites, Store, Runtime, Core}
//   ChatEvalRunner → {Suites, Store, Compare, Grading, Runtime, Core}   ChatEvalReport → {Compare, History, Store, Core}
//   ChatEvalHistory → {Store, Core}   ChatEvalIndex → {Store, Core, CSQLite}
//   ChatEvalCompare → {Store, Core}   ChatEvalSuites → {Grading, Core}   ChatEvalStore → Core
//   ChatEvalLlama → {Runtime, Core, Digest, CLlama, CEngineCrash}   ChatEvalOpenAI → {Runtime, Core, Digest, CCurl}
//   ChatEvalGit → {Core, CGit2}
//   ChatEvalGrading → {Core, PunktModel, CTextCat, CPCRE2}   ChatEvalPunktModel → CPunktModel   ChatEvalDigest → COpenSSL
//   C modules have one importer each; ChatEvalCore imports Foundation only.
//   ChatEvalToolKit (running programs, a local llama-server, synthetic histories, the gate's calibration) → {Compare, Store, Core}:
//     tests and benches.
//   ChatEvalTestKit (fakes: scripted runtime, fake chat server; test tags) → {ToolKit, Runtime, Store, Core}: tests only.
//   Executables: chateval (CLI), chateval-bench (Bench → ToolKit), chateval-grading-bench, chateval-fuzz.
//
// Three packages from the mirror, no more: argument parsing, YAML, and (tests and benches only) running programs.
// HTTP is libcurl and SHA-256 is OpenSSL's libcrypto, both system libraries already on the machine
// (see Sources/ChatEvalOpenAI/HTTP/HTTPClient.swift for the measured trade-off).
/// -O for a target in debug builds (tests), where its loops would otherwise dominate `make test`.
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]
/// Test targets unoptimised in the release build the tests share with `make run` (SwiftPM's
/// release configuration is one for the whole graph). The optimiser was most of their compile:
/// the 15 test targets rebuilt in 205 and 252 s at -O, 130–132 s at -Onone (3 builds), 2-core
/// Intel Xeon, 2026-11-30, quiet. The tests' own bodies are assertions around calls into the
/// libraries, which stay optimised: the quick tests ran in 191.5 and 193.7 s against 213.1 and
/// 234.9 s at -O. -no-whole-module-optimization as well was slower (151 s): one job per target
/// already keeps both cores busy.
let testSettings: [SwiftSetting] = [.unsafeFlags(["-Onone"], .when(configuration: .release))]
/// The command line's own module unoptimised too: its 1,600 lines declare options and check them,
/// then hand the work to the libraries (every loop a run, a comparison or a report spends its time
/// in is in the optimised libraries; the only loops here run over option values). It is the last
/// module of the release build's longest chain: compiled alone, 5.9 and 9.4 s at -O against 3.0
/// and 2.8 s at -Onone (2-core Intel Xeon, 2026-12-01).
let commandLineSettings = testSettings

/// A test target, built with `testSettings` (every test target is: one place to say so).
func testTarget(_ name: String, _ dependencies: [Target.Dependency], exclude: [String] = []) -> Target {
    .testTarget(name: name, dependencies: dependencies, exclude: exclude, swiftSettings: testSettings)
}

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
        // Tests and benches only (ChatEvalToolKit): running programs without pipe deadlocks.
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.5.0"),
    ],
    targets: [
        // C modules: a module map over a system library (or a small C source), each imported by exactly one Swift target.
        .systemLibrary(name: "CLlama", pkgConfig: "llama"),
        .systemLibrary(name: "CGit2", pkgConfig: "libgit2", providers: [.apt(["libgit2-dev"])]),
        .systemLibrary(name: "CTextCat", pkgConfig: "libexttextcat", providers: [.apt(["libexttextcat-dev", "libexttextcat-data"])]),
        // PCRE2's 32-bit library: grading matches on code points, which are UTF-32 code units.
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-32", providers: [.apt(["libpcre2-dev"])]),
        // SQLite for the results index (system library, not GRDB: see ChatEvalIndex/SQLiteResultIndex.swift).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // libcurl for the served runtime's HTTP (not AsyncHTTPClient: see ChatEvalOpenAI/HTTP/HTTPClient.swift),
        // loaded on its first request (dlopen), so that an in-process run never maps it and its TLS stack.
        // Its headers come from libcurl4-openssl-dev (scripts/setup.sh).
        .target(name: "CCurl"),
        // OpenSSL's libcrypto for SHA-256 (not swift-crypto's own BoringSSL: see ChatEvalDigest/SHA256.swift).
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        // SHA-256 hex digests (models, templates, project files), from libcrypto.
        .target(name: "ChatEvalDigest", dependencies: ["COpenSSL"]),
        // Pure value types and algorithms: messages, options, metrics, statistics. No I/O.
        // Optimised in debug builds too: the gate's calibration tests run thousands of seeded
        // comparisons through these statistics (7 minutes unoptimised, seconds optimised).
        .target(name: "ChatEvalCore", swiftSettings: optimisedInDebug),
        // The runtime contract (a turn streams .chunk/.info events), the conversation replayer,
        // process-memory probes.
        .target(name: "ChatEvalRuntime", dependencies: ["ChatEvalCore"]),
        // llama.cpp in-process runtime: owns every llama.cpp pointer.
        .target(name: "ChatEvalLlama", dependencies: ["ChatEvalRuntime", "ChatEvalCore", "ChatEvalDigest", "CLlama", "CEngineCrash"]),
        // The engine's fatal signals named (which engine, signal, turn; where the finished turns
        // are kept): a signal handler in C, since it may only do async-signal-safe work.
        .target(name: "CEngineCrash"),
        // An OpenAI-compatible server (llama-server, vLLM, Ollama, mlx_lm.server, hosted APIs) as a
        // runtime: streamed /v1/chat/completions, the server's own figures, typed failures, retries.
        .target(name: "ChatEvalOpenAI", dependencies: ["ChatEvalRuntime", "ChatEvalCore", "ChatEvalDigest", "CCurl"]),
        // libgit2: the commit, branch and dirty state a run is recorded against; git notes.
        .target(name: "ChatEvalGit", dependencies: ["ChatEvalCore", "CGit2"]),
        // Deterministic rule-based checks (text, JSON, IFEval, performance) and their catalogue.
        .target(name: "ChatEvalGrading", dependencies: ["ChatEvalCore", "ChatEvalPunktModel", "CTextCat", "CPCRE2"]),
        // NLTK's English Punkt model tables, read once at first use from CPunktModel's data file.
        .target(name: "ChatEvalPunktModel", dependencies: ["CPunktModel"]),
        // The Punkt model's data file (english-punkt.txt, written by scripts/generate-punkt-model.py)
        // as bytes in the binary, by C23 #embed: no resource bundle to find at run time (punkt_model.c says why).
        .target(name: "CPunktModel", exclude: ["english-punkt.txt"], cSettings: [.unsafeFlags(["-std=c23"])]),
        // YAML suites → Core values and check definitions, with file/line/column errors.
        .target(name: "ChatEvalSuites", dependencies: ["ChatEvalGrading", "ChatEvalCore", .product(name: "Yams", package: "Yams")]),
        // Result files: the run record schema, the journal, atomic writes, machine fingerprint.
        .target(name: "ChatEvalStore", dependencies: ["ChatEvalCore", "ChatEvalDigest"]),
        // Compares runs: per-metric rank tests with Holm's adjustment, thresholds, check changes.
        .target(name: "ChatEvalCompare", dependencies: ["ChatEvalCore", "ChatEvalStore"], swiftSettings: optimisedInDebug),
        // Runs a plan of suites against a runtime, recording every turn as it goes.
        .target(
            name: "ChatEvalRunner",
            dependencies: ["ChatEvalSuites", "ChatEvalStore", "ChatEvalCompare", "ChatEvalGrading", "ChatEvalRuntime", "ChatEvalCore"]),
        // A metric over first-parent history: per-commit medians and spreads, series per machine
        // and model, change points (E-divisive) with the suspect commit.
        .target(name: "ChatEvalHistory", dependencies: ["ChatEvalCore", "ChatEvalStore"]),
        // The results index: recorded runs (result files, git notes) in SQLite, behind a protocol.
        .target(name: "ChatEvalIndex", dependencies: ["ChatEvalCore", "ChatEvalStore", "CSQLite"]),
        // Human-readable tables and summaries; Markdown, JUnit XML, HTML and per-turn CSV reports.
        .target(name: "ChatEvalReport", dependencies: ["ChatEvalCore", "ChatEvalStore", "ChatEvalCompare", "ChatEvalHistory"]),
        // What tests and benches share, never linked into `chateval` and free of any test framework:
        // running programs (swift-subprocess, both pipes read at once), a local llama-server, synthetic histories,
        // and the gate's calibration on seeded samples (through Compare's package-level decisions; optimised in
        // debug builds too, as Compare is, for the thousands of comparisons its tests run).
        .target(
            name: "ChatEvalToolKit",
            dependencies: [
                "ChatEvalCompare", "ChatEvalStore", "ChatEvalCore", .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ], swiftSettings: optimisedInDebug),
        // Fakes and tags shared by tests (imports Testing); re-exports ChatEvalToolKit.
        .target(name: "ChatEvalTestKit", dependencies: ["ChatEvalToolKit", "ChatEvalRuntime", "ChatEvalStore", "ChatEvalCore"]),

        // What the commands do, without the command line: the workspace (repository, project file,
        // settings resolved in order of precedence), recorded runs found by file, folder or revision,
        // the runs, gates, bisections and calibrations themselves, their progress and reports, and
        // every failure typed with its exit code (`CommandFailure`). The only target that brings the
        // engines, git, the store and the index together.
        .target(
            name: "ChatEvalWorkspace",
            dependencies: [
                "ChatEvalLlama", "ChatEvalOpenAI", "ChatEvalRunner", "ChatEvalReport", "ChatEvalGit", "ChatEvalCompare", "ChatEvalHistory",
                "ChatEvalIndex", "ChatEvalSuites", "ChatEvalStore", "ChatEvalRuntime", "ChatEvalCore",
            ]),
        // The command line: options parsed into the workspace's requests, one call each, the report out.
        .executableTarget(
            name: "ChatEvalCLI",
            dependencies: [
                "ChatEvalWorkspace", "ChatEvalReport", "ChatEvalHistory", "ChatEvalSuites", "ChatEvalStore", "ChatEvalLlama", "ChatEvalGit",
                "ChatEvalCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: commandLineSettings
        ),
        .executableTarget(
            name: "ChatEvalBench",
            dependencies: [
                "ChatEvalLlama", "ChatEvalOpenAI", "ChatEvalReport", "ChatEvalRuntime", "ChatEvalCore", "ChatEvalCompare", "ChatEvalRunner",
                "ChatEvalStore", "ChatEvalSuites", "ChatEvalToolKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Fuzzing what users, models and disks control: suites (chained placeholders), answers files, project
        // files, result files, journals, the results index, the importers' formats (promptfoo, Multi-IF CSV,
        // IFBench JSONL) and bisection journals. A bounded
        // mutational fuzzer by default (make test); libFuzzer with -DCHATEVAL_LIBFUZZER (make fuzz).
        .executableTarget(
            name: "ChatEvalFuzz",
            dependencies: [
                "ChatEvalSuites", "ChatEvalRunner", "ChatEvalRuntime", "ChatEvalGrading", "ChatEvalCompare", "ChatEvalIndex",
                "ChatEvalStore",
                "ChatEvalCore", "ChatEvalReport",
            ]),
        // Grading throughput: 10,000 answers against a 20-check turn, graded through the runner's own path.
        .executableTarget(
            name: "ChatEvalGradingBench",
            dependencies: ["ChatEvalRunner", "ChatEvalRuntime", "ChatEvalSuites", "ChatEvalGrading", "ChatEvalCore"]),

        testTarget("ChatEvalCoreTests", ["ChatEvalCore"]),
        testTarget("ChatEvalRuntimeTests", ["ChatEvalRuntime", "ChatEvalCore", "ChatEvalTestKit"]),
        testTarget("ChatEvalSuitesTests", ["ChatEvalSuites", "ChatEvalGrading", "ChatEvalCore"], exclude: ["Fixtures"]),
        testTarget("ChatEvalLlamaTests", ["ChatEvalLlama", "ChatEvalRuntime", "ChatEvalCore", "ChatEvalTestKit"]),
        testTarget("ChatEvalGitTests", ["ChatEvalGit", "ChatEvalCore", "ChatEvalTestKit"]),
        testTarget(
            "ChatEvalRunnerTests",
            [
                "ChatEvalRunner", "ChatEvalReport", "ChatEvalCompare", "ChatEvalGrading", "ChatEvalSuites", "ChatEvalStore",
                "ChatEvalRuntime",
                "ChatEvalCore", "ChatEvalTestKit",
            ]),
        testTarget(
            "ChatEvalOpenAITests",
            ["ChatEvalOpenAI", "ChatEvalRunner", "ChatEvalSuites", "ChatEvalStore", "ChatEvalRuntime", "ChatEvalCore", "ChatEvalTestKit"]),
        testTarget("ChatEvalStoreTests", ["ChatEvalStore", "ChatEvalCore", "ChatEvalTestKit"]),
        testTarget("ChatEvalIndexTests", ["ChatEvalIndex", "ChatEvalStore", "ChatEvalCore", "ChatEvalTestKit"]),
        testTarget("ChatEvalHistoryTests", ["ChatEvalHistory", "ChatEvalStore", "ChatEvalCore", "ChatEvalTestKit"]),
        testTarget(
            "ChatEvalReportTests",
            ["ChatEvalReport", "ChatEvalHistory", "ChatEvalCompare", "ChatEvalStore", "ChatEvalCore", "ChatEvalTestKit"]),
        testTarget("ChatEvalCompareTests", ["ChatEvalCompare", "ChatEvalStore", "ChatEvalCore", "ChatEvalTestKit"]),
        testTarget(
            "ChatEvalGradingTests", ["ChatEvalGrading", "ChatEvalPunktModel", "ChatEvalCore", "ChatEvalDigest", "ChatEvalToolKit"],
            exclude: ["Fixtures"]),
        testTarget(
            "ChatEvalWorkspaceTests",
            [
                "ChatEvalWorkspace", "ChatEvalCompare", "ChatEvalReport", "ChatEvalSuites", "ChatEvalStore", "ChatEvalCore",
                "ChatEvalTestKit",
            ]),
        testTarget("ChatEvalCLITests", ["ChatEvalCLI", "ChatEvalOpenAI", "ChatEvalTestKit"]),
    ],
    swiftLanguageModes: [.v6]
)
