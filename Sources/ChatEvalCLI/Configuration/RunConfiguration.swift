import ChatEvalCore
import ChatEvalLlama
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// Everything a run uses, resolved in order of precedence — command line, environment
/// (`CHATEVAL_MODEL`), project file, built-in default — with where each value came from, so that
/// a commit (its suites and project file) determines its run and the record says what did not.
struct RunConfiguration {
    var modelPath: String
    /// The digest the project file requires of the model, if it names one.
    var expectedModelSha256: String?
    var chatTemplate: String?
    var contextSize: Int
    var threads: Int
    var batchSize: Int
    var cacheMode: CacheMode
    var repetitions: Int
    var warmup: Int
    /// Suite files or folders (paths on disk, or paths in a commit's tree for a baseline).
    var suitePaths: [String]
    var reportsFolder: String
    /// The preset and the project file's comparison settings (suites and the command line add theirs).
    var comparison: ComparisonSettings
    var sources: [String: SettingSource]
    var project: ProjectFile?

    /// Command-line values that override everything (nil where the option was not given).
    struct Overrides {
        var model: String?
        var chatTemplate: String?
        var contextSize: Int?
        var threads: Int?
        var batchSize: Int?
        var cacheMode: CacheMode?
        var repetitions: Int?
        var warmup: Int?
        var suitePaths: [String]?
        var reportsFolder: String?
    }

    /// Resolves settings. `projectFolder` anchors the project file's relative paths; warnings
    /// (a project asking for more threads than the machine has) go to `warn`.
    static func resolve(
        _ overrides: Overrides, project: ProjectFile?, projectFolder: URL,
        environment: [String: String] = ProcessInfo.processInfo.environment, warn: (String) -> Void
    ) throws -> RunConfiguration {
        var sources: [String: SettingSource] = [:]
        func pick<T>(_ name: String, _ commandLine: T?, _ fromEnvironment: T? = nil, _ fromProject: T?, _ builtIn: T) -> T {
            if let commandLine { sources[name] = .commandLine; return commandLine }
            if let fromEnvironment { sources[name] = .environment; return fromEnvironment }
            if let fromProject { sources[name] = .projectFile; return fromProject }
            sources[name] = .builtIn
            return builtIn
        }
        func anchored(_ path: String) -> String {
            path.hasPrefix("/") ? path : projectFolder.appendingPathComponent(path).standardizedFileURL.path
        }

        let environmentModel = environment["CHATEVAL_MODEL"].flatMap { $0.isEmpty ? nil : $0 }
        let modelPath = pick("model", overrides.model, environmentModel, project?.model.map { anchored($0.path) }, RuntimeOptions.builtInModelPath)
        // The project's digest binds its own model only.
        let expectedSha256 = sources["model"] == .projectFile ? project?.model?.sha256 : nil

        var threads = pick("threads", overrides.threads, nil, project?.threads, RuntimeOptions.availableCores)
        if sources["threads"] == .projectFile, threads > RuntimeOptions.availableCores {
            warn("the project file asks for \(threads) threads; this machine has \(RuntimeOptions.availableCores) cores available, so \(RuntimeOptions.availableCores) are used")
            threads = RuntimeOptions.availableCores
        }
        let comparison = ComparisonSettings.default.applying(project?.compare ?? ComparisonOverrides())
        sources["compare"] = project?.compare == nil ? .builtIn : .projectFile

        return RunConfiguration(
            modelPath: modelPath, expectedModelSha256: expectedSha256,
            chatTemplate: pick("chat_template", overrides.chatTemplate, nil, project?.chatTemplate, nil as String?),
            contextSize: pick("context_size", overrides.contextSize, nil, project?.contextSize, 4096),
            threads: threads,
            batchSize: pick("batch_size", overrides.batchSize, nil, project?.batchSize, 512),
            cacheMode: pick("cache_mode", overrides.cacheMode, nil, project?.cacheMode, .session),
            repetitions: pick("repetitions", overrides.repetitions, nil, project?.repetitions, 1),
            warmup: pick("warmup", overrides.warmup, nil, project?.warmup, 0),
            suitePaths: pick("suites", overrides.suitePaths, nil, project?.suites.map { $0.map(anchored) }, ["suites"]),
            reportsFolder: pick("reports", overrides.reportsFolder, nil, project?.reports.map(anchored), "reports"),
            comparison: comparison, sources: sources, project: project)
    }

    /// The llama.cpp runtime this configuration loads.
    var runtimeConfiguration: LlamaChatRuntime.Configuration {
        LlamaChatRuntime.Configuration(
            modelPath: modelPath, chatTemplate: chatTemplate, contextSize: contextSize, batchSize: batchSize,
            threads: threads, build: ProcessInfo.processInfo.environment["CHATEVAL_LLAMA_BUILD"])
    }

    var settings: RunSettings {
        RunSettings(cacheMode: cacheMode, repetitions: repetitions, warmupConversations: warmup, sources: sources)
    }
}
