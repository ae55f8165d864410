import ChatEvalCore
import ChatEvalLlama
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// Everything a run uses, resolved in order of precedence — command line, environment
/// (`CHATEVAL_MODEL`), project file, built-in default — with where each value came from, so that
/// a commit (its suites and project file) determines its run and the record says what did not.
package struct RunConfiguration {
    /// What the suites run against: one model, or several side by side (each its own record).
    package var variants: [ModelVariant]
    package var threads: Int
    package var batchSize: Int
    package var slidingWindowCache: SlidingWindowCache
    package var cacheMode: CacheMode
    package var repetitions: Int
    /// `run --baseline`: the most repetitions per side its rounds may add, and the seconds after
    /// which no new round starts (nil: no limit).
    package var maxRepetitions: Int
    package var timeBudget: Double?
    package var warmup: Int
    /// Suite files or folders (paths on disk, or paths in a commit's tree for a baseline).
    package var suitePaths: [String]
    package var reportsFolder: String
    /// The preset and the project file's comparison settings (suites and the command line add theirs).
    package var comparison: ComparisonSettings
    package var sources: [String: SettingSource]
    package var project: ProjectFile?
    /// A cache fault made on purpose (`CHATEVAL_TEST_CACHE_FAULT`, a test hook); nil in real runs.
    package var cacheFault: CacheFault?
    /// Load in-process models able to split the process's memory (`run --memory-attribution`).
    package var attributesMemory = false

    /// One model file with its template and context size, as a side-by-side run runs it.
    package struct ModelVariant: Equatable {
        package var modelPath: String
        /// The digest the project file requires of the model, if it names one.
        var expectedSha256: String?
        package var chatTemplate: String?
        package var contextSize: Int
        /// Its name in reports: the file name, with the template or context size where the
        /// variants differ in them.
        package var label: String
    }

    /// Command-line values that override everything (nil where the option was not given).
    /// `models`, `chatTemplates` and `contextSizes` pair up position by position; a list of one
    /// applies to every position.
    package struct Overrides {
        package var models: [String]?
        package var chatTemplates: [String]?
        package var contextSizes: [Int]?
        package var threads: Int?
        package var batchSize: Int?
        package var slidingWindowCache: SlidingWindowCache?
        package var cacheMode: CacheMode?
        package var repetitions: Int?
        package var maxRepetitions: Int?
        package var timeBudget: Double?
        package var warmup: Int?
        package var suitePaths: [String]?
        package var reportsFolder: String?

        package init(
            models: [String]? = nil, chatTemplates: [String]? = nil, contextSizes: [Int]? = nil, threads: Int? = nil,
            batchSize: Int? = nil, slidingWindowCache: SlidingWindowCache? = nil, cacheMode: CacheMode? = nil, repetitions: Int? = nil,
            maxRepetitions: Int? = nil, timeBudget: Double? = nil, warmup: Int? = nil, suitePaths: [String]? = nil,
            reportsFolder: String? = nil
        ) {
            self.models = models
            self.chatTemplates = chatTemplates
            self.contextSizes = contextSizes
            self.threads = threads
            self.batchSize = batchSize
            self.slidingWindowCache = slidingWindowCache
            self.cacheMode = cacheMode
            self.repetitions = repetitions
            self.maxRepetitions = maxRepetitions
            self.timeBudget = timeBudget
            self.warmup = warmup
            self.suitePaths = suitePaths
            self.reportsFolder = reportsFolder
        }
    }

    /// The sequential gate's defaults: at most 30 repetitions per side, and no round started after
    /// 20 minutes (a CI job should learn its verdict within half an hour).
    static let defaultMaxRepetitions = 30
    static let defaultTimeBudget = 1200.0

    package struct ConfigurationError: Error, CustomStringConvertible {
        package var description: String
    }

    /// Resolves settings. `projectFolder` anchors the project file's relative paths; warnings
    /// (a project asking for more threads than the machine has) go to `warn`.
    package static func resolve(
        _ overrides: Overrides, project: ProjectFile?, projectFolder: URL,
        environment: [String: String] = ProcessInfo.processInfo.environment, warn: (String) -> Void
    ) throws(ConfigurationError) -> RunConfiguration {
        var sources: [String: SettingSource] = [:]
        func pick<T>(_ name: String, _ commandLine: T?, _ fromEnvironment: T? = nil, _ fromProject: T?, _ builtIn: T) -> T {
            let chosen = SettingSource.first(commandLine: commandLine, environment: fromEnvironment, projectFile: fromProject)
            sources[name] = chosen?.source ?? .builtIn
            return chosen?.value ?? builtIn
        }
        func anchored(_ path: String) -> String {
            path.hasPrefix("/") ? path : projectFolder.appendingPathComponent(path).standardizedFileURL.path
        }

        let environmentModel = environment["CHATEVAL_MODEL"].flatMap { $0.isEmpty ? nil : [ProjectFile.ModelReference(path: $0)] }
        let projectModels = project?.models?.map { reference in
            var anchoredReference = reference
            anchoredReference.path = anchored(reference.path)
            return anchoredReference
        }
        let models = pick(
            "model", overrides.models.map { $0.map { ProjectFile.ModelReference(path: $0) } }, environmentModel, projectModels,
            [ProjectFile.ModelReference(path: LocalSetup.builtInModelPath)])
        // The project's digests, templates and context sizes bind its own models only.
        let fromProject = sources["model"] == .projectFile
        let templates = overrides.chatTemplates
        let contextSizes = overrides.contextSizes
        sources["chat_template"] =
            templates != nil
            ? .commandLine
            : (project?.chatTemplate != nil || (fromProject && models.contains { $0.chatTemplate != nil })) ? .projectFile : .builtIn
        sources["context_size"] =
            contextSizes != nil
            ? .commandLine
            : (project?.contextSize != nil || (fromProject && models.contains { $0.contextSize != nil })) ? .projectFile : .builtIn

        let count = try variantCount(models: models.count, templates: templates?.count ?? 1, contextSizes: contextSizes?.count ?? 1)
        var variants: [ModelVariant] = (0..<count).map { index in
            let model = models[models.count == 1 ? 0 : index]
            let template =
                templates.map { $0[$0.count == 1 ? 0 : index] } ?? (fromProject ? model.chatTemplate : nil) ?? project?.chatTemplate
            let contextSize =
                contextSizes.map { $0[$0.count == 1 ? 0 : index] } ?? (fromProject ? model.contextSize : nil) ?? project?.contextSize
                ?? 4096
            return ModelVariant(
                modelPath: model.path, expectedSha256: fromProject ? model.sha256 : nil, chatTemplate: template,
                contextSize: contextSize, label: (fromProject ? model.label : nil) ?? "")
        }
        variants = labelled(variants)

        let requestedThreads = pick("threads", overrides.threads, nil, project?.threads, LocalSetup.availableCores)
        let threads = capped(threads: requestedThreads, fromProject: sources["threads"] == .projectFile, warn: warn)
        let comparison = ComparisonSettings.default.applying(project?.compare ?? ComparisonOverrides())
        sources["compare"] = project?.compare == nil ? .builtIn : .projectFile

        return RunConfiguration(
            variants: variants,
            threads: threads,
            batchSize: pick("batch_size", overrides.batchSize, nil, project?.batchSize, 512),
            slidingWindowCache: pick("sliding_window_cache", overrides.slidingWindowCache, nil, project?.slidingWindowCache, .full),
            cacheMode: pick("cache_mode", overrides.cacheMode, nil, project?.cacheMode, .session),
            repetitions: pick("repetitions", overrides.repetitions, nil, project?.repetitions, 1),
            maxRepetitions: pick("max_repetitions", overrides.maxRepetitions, nil, project?.maxRepetitions, Self.defaultMaxRepetitions),
            timeBudget: pick("time_budget", overrides.timeBudget, nil, project?.timeBudget, Self.defaultTimeBudget),
            warmup: pick("warmup", overrides.warmup, nil, project?.warmup, 0),
            suitePaths: pick("suites", overrides.suitePaths, nil, project?.suites.map { $0.map(anchored) }, ["suites"]),
            reportsFolder: pick("reports", overrides.reportsFolder, nil, project?.reports.map(anchored), "reports"),
            comparison: comparison, sources: sources, project: project)
    }

    /// How many side-by-side variants the lists ask for: each list is given once (for all) or
    /// once per variant.
    private static func variantCount(models: Int, templates: Int, contextSizes: Int) throws(ConfigurationError) -> Int {
        let count = max(models, templates, contextSizes)
        for (name, list) in [("--model", models), ("--chat-template", templates), ("--ctx-size", contextSizes)]
        where list != 1 && list != count {
            throw ConfigurationError(
                description: "\(name) is given \(list) times, but \(count) side-by-side variants are asked for; "
                    + "give it once (for all) or once per variant, in the order of --model")
        }
        return count
    }

    /// The threads a project file asks for, at most the cores available (with a warning). An
    /// override's threads are taken as given: the caller refuses more than the cores (the CLI does).
    private static func capped(threads: Int, fromProject: Bool, warn: (String) -> Void) -> Int {
        guard fromProject, threads > LocalSetup.availableCores else { return threads }
        warn(
            "the project file asks for \(threads) threads; this machine has \(LocalSetup.availableCores) cores available, "
                + "so \(LocalSetup.availableCores) are used"
        )
        return LocalSetup.availableCores
    }

    /// Names for reports: a given label, else the file name without `.gguf` — with the template
    /// and the context size added where they differ, when one model file is run more than once
    /// (the model headers name every variant's template and context anyway); numbered if still
    /// not unique.
    package static func labelled(_ variants: [ModelVariant]) -> [ModelVariant] {
        let fileRepeats = Set(variants.map(\.modelPath)).count < variants.count
        let templatesDiffer = fileRepeats && Set(variants.map { $0.chatTemplate ?? "" }).count > 1
        let contextsDiffer = fileRepeats && Set(variants.map(\.contextSize)).count > 1
        var named = variants.map { variant in
            guard variant.label.isEmpty else { return variant }
            var copy = variant
            var name = URL(fileURLWithPath: variant.modelPath).lastPathComponent
            if name.lowercased().hasSuffix(".gguf") { name.removeLast(5) }
            var extras: [String] = []
            if templatesDiffer { extras.append("template \(variant.chatTemplate ?? "embedded")") }
            if contextsDiffer { extras.append("ctx \(variant.contextSize)") }
            copy.label = extras.isEmpty ? name : "\(name) (\(extras.joined(separator: ", ")))"
            return copy
        }
        for index in named.indices where named.filter({ $0.label == named[index].label }).count > 1 {
            named[index].label += " #\(index + 1)"
        }
        return named
    }

    /// The first (or only) variant: what an ordinary run and a `--baseline` comparison use.
    package var primary: ModelVariant { variants[0] }

    /// What the primary model's replays are made with, in words: "SmolLM2.gguf (sha256 3f2a1c…),
    /// template embedded, ctx 4096, threads 2, batch 512, cache session". Two commits with equal
    /// words replay alike.
    package var settingsWords: String {
        let model = URL(fileURLWithPath: primary.modelPath).lastPathComponent
        return "\(model)" + (primary.expectedSha256.map { " (sha256 \($0.prefix(12))…)" } ?? "")
            + ", template \(primary.chatTemplate ?? "embedded"), ctx \(primary.contextSize), threads \(threads), batch \(batchSize), "
            + "sliding window \(slidingWindowCache.rawValue), cache \(cacheMode.rawValue)"
    }

    /// The llama.cpp runtime a variant loads.
    func runtimeConfiguration(_ variant: ModelVariant) -> LlamaChatRuntime.Configuration {
        var configuration = LlamaChatRuntime.Configuration(
            modelPath: variant.modelPath, chatTemplate: variant.chatTemplate, contextSize: variant.contextSize, batchSize: batchSize,
            threads: threads, slidingWindowCache: slidingWindowCache, build: EngineBuild.currentName)
        configuration.cacheFault = cacheFault
        configuration.attributesMemory = attributesMemory
        return configuration
    }

    package func settings(selection: SuiteSelection) -> RunSettings {
        var settings = RunSettings(cacheMode: cacheMode, repetitions: repetitions, warmupConversations: warmup, sources: sources)
        if !selection.isEmpty {
            settings.selection = SuiteSelectionRecord(
                patterns: selection.patterns, tags: selection.tags, conversations: selection.conversationsByPath)
        }
        return settings
    }
}
