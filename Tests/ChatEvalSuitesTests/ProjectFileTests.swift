import ChatEvalCore
import ChatEvalSuites
import Testing

/// chateval.yaml: every setting, its expansions, and located errors.
@Suite struct ProjectFileTests {
    private func parse(_ text: String, environment: [String: String] = ["HOME": "/home/u"]) throws(SuiteErrors) -> ProjectFile {
        try ProjectFile.parse(text, source: "chateval.yaml", environment: environment)
    }

    private func errors(_ text: String) -> [String] {
        do {
            _ = try parse(text)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func theSequentialGateAndTheBusyThresholdAreRead() throws {
        let project = try parse("max_repetitions: 20\ntime_budget: 15m\ncompare: {busy_threshold: 0.5}\n")
        #expect(project.maxRepetitions == 20 && project.timeBudget == 900)
        #expect(project.compare?.busyThreshold == 0.5)
        #expect(try parse("compare: {busy_threshold: off}\n").compare?.busyThreshold == .infinity)
        #expect(ComparisonSettings.default.applying(try parse("compare: {busy_threshold: off}\n").compare!).busyThreshold == nil)
        #expect(errors("time_budget: soon\n").first?.contains("time_budget 'soon' is not a duration") == true)
        #expect(errors("max_repetitions: 1\n").isEmpty == false)
        #expect(
            errors("compare: {busy_threshold: -1}\n").first?.contains("busy_threshold must be a number of cores above 0, or off") == true)
    }

    /// `compare.priority`: the metrics `run --baseline` keeps measuring while open; unset is TTFT,
    /// `[]` none; a metric that is not compared, or listed twice, is an error at its line.
    @Test func thePriorityOfMetricsIsRead() throws {
        let project = try parse("compare:\n  priority: [ttft, decode-tps]\n")
        #expect(project.compare?.priority == [.timeToFirstToken, .decodeTokensPerSecond])
        #expect(ComparisonSettings.default.applying(project.compare!).priorityMetrics == [.timeToFirstToken, .decodeTokensPerSecond])
        #expect(ComparisonSettings.default.priorityMetrics == [.timeToFirstToken])
        #expect(ComparisonSettings.default.applying(try parse("compare: {priority: []}\n").compare!).priorityMetrics.isEmpty)
        let unknown = errors("compare:\n  priority: [ttft, tfft]\n")
        #expect(unknown.first?.contains(":2:20:") == true && unknown.first?.contains("'tfft' is not a compared metric") == true)
        #expect(unknown.first?.contains("did you mean 'ttft'?") == true)
        #expect(errors("compare: {priority: [ttft, ttft]}\n").first?.contains("listed twice") == true)
    }

    @Test func everySettingIsRead() throws {
        let project = try parse(
            """
            model:
              path: ${CHATEVAL_CACHE}/models/m.gguf
              sha256: B179C9523D0E6A0F98A330C7562B682750A6F8C8C15E5BC70EA373728110DB53
            chat_template: chatml
            context_size: 2048
            threads: 2
            batch_size: 256
            sliding_window_cache: window
            cache_mode: cold
            repetitions: 10
            warmup: 1
            suites: [suites/a.yaml, more]
            reports: out
            compare:
              preset: relaxed
              alpha: 0.005
              thresholds:
                ttft: {relative: 7.5%, absolute: 0.003}
                peak-memory: {absolute: 8MiB}
            """)
        #expect(project.models?.first?.path == "/home/u/.cache/chateval/models/m.gguf")
        #expect(project.models?.first?.sha256 == "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53")
        #expect(project.chatTemplate == "chatml" && project.contextSize == 2048 && project.threads == 2 && project.batchSize == 256)
        #expect(project.cacheMode == .cold && project.repetitions == 10 && project.warmup == 1)
        #expect(project.slidingWindowCache == .window)
        #expect(project.suites == ["suites/a.yaml", "more"] && project.reports == "out")
        let compare = try #require(project.compare)
        #expect(compare.preset == "relaxed" && compare.familyErrorRate == 0.005)
        #expect(compare.thresholds[.timeToFirstToken] == ThresholdOverride(relative: 0.075, absolute: 0.003))
        #expect(compare.thresholds[.peakMemory] == ThresholdOverride(relative: nil, absolute: 8 * 1_048_576))
        let settings = ComparisonSettings.default.applying(compare)
        #expect(settings.preset == "relaxed" && settings.familyErrorRate == 0.005)
        #expect(settings.thresholds[.timeToFirstToken]?.relative == 0.075)
        #expect(settings.thresholds[.peakMemory]?.relative == ComparisonSettings.relaxed.thresholds[.peakMemory]?.relative)
    }

    @Test func modelsListTheVariantsOfASideBySideRun() throws {
        let project = try parse(
            """
            models:
              - {path: a.gguf, sha256: b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53}
              - path: b.gguf
                chat_template: gemma
                context_size: 2048
                label: gemma-270m
            """)
        let models = try #require(project.models)
        #expect(models.map(\.label) == [nil, "gemma-270m"])
        #expect(models[1].chatTemplate == "gemma" && models[1].contextSize == 2048 && models[0].sha256?.hasPrefix("b179") == true)
        #expect(errors("model: a.gguf\nmodels: [b.gguf]").first?.contains("the project file has both 'model' and 'models'") == true)
        #expect(errors("models: []").first?.contains("models is empty") == true)
    }

    @Test func anEmptyFileSetsNothing() throws {
        let project = try parse("")
        #expect(project.models == nil && project.suites == nil && project.compare == nil)
    }

    @Test func pathsExpandTheEnvironmentAndHome() throws {
        #expect(try parse("model: ~/m.gguf").models?.first?.path == "/home/u/m.gguf")
        #expect(try parse("model: ${MODELS}/m.gguf", environment: ["MODELS": "/srv"]).models?.first?.path == "/srv/m.gguf")
        #expect(try parse("model: ${CHATEVAL_CACHE}/x", environment: ["CHATEVAL_CACHE": "/c"]).models?.first?.path == "/c/x")
        #expect(
            errors("model: ${NOT_SET}/m.gguf") == [
                "chateval.yaml:1:8: error: model.path uses ${NOT_SET}, which is not set in the environment; set NOT_SET or write the path"
            ])
    }

    @Test(arguments: [
        ("threads: 0", "chateval.yaml:1:10: error: threads must be at least 1, found 0"),
        ("context_size: 99999999999", "chateval.yaml:1:15: error: context_size must be at most 4194304, found 99999999999"),
        (
            "threads: 0x10",
            "chateval.yaml:1:10: error: threads must be a whole number, found '0x10'; write decimal digits, such as 42, 0.5 or 1e3"
        ),
        ("cache_mode: warm", "chateval.yaml:1:13: error: unknown cache_mode 'warm'; session or cold"),
        (
            "sliding_window_cache: half",
            "chateval.yaml:1:23: error: unknown sliding_window_cache 'half'; "
                + "full (every position cached) or window (about the window only, as llama-server by default)"
        ),
        ("repetition: 3", "chateval.yaml:1:1: error: unknown key 'repetition' in the project file; did you mean 'repetitions'?"),
        ("model: {sha256: " + String(repeating: "a", count: 64) + "}", "chateval.yaml:1:8: error: model needs a 'path'"),
        ("compare: {preset: strcit}", "chateval.yaml:1:19: error: unknown comparison preset 'strcit'; did you mean 'strict'?"),
        ("compare: {alpha: 1}", "chateval.yaml:1:18: error: compare.alpha must be between 0 and 1, exclusive, found 1.0"),
        (
            "compare: {thresholds: {tpot: {relative: 5%}}}",
            "chateval.yaml:1:24: error: 'tpot' is not compared between runs, so a threshold on it would do nothing; "
                + "set it on decode-tps (its reciprocal), which is compared"
        ),
        (
            "compare: {thresholds: {tfft: {relative: 5%}}}",
            "chateval.yaml:1:24: error: unknown metric 'tfft' in compare.thresholds; did you mean 'ttft'?"
        ),
        (
            "compare: {thresholds: {ttft: {relative: five}}}",
            "chateval.yaml:1:41: error: compare.thresholds.ttft.relative must be a number, found 'five'; "
                + "write decimal digits, such as 42, 0.5 or 1e3"
        ),
    ])
    func badSettingsAreLocated(_ text: String, _ expected: String) {
        #expect(errors(text) == [expected])
    }

    @Test func exponentsAreNumbersEverywhere() throws {
        #expect(try parse("repetitions: 1e1").repetitions == 10)
        #expect(errors("repetitions: 1.5").first?.contains("must be a whole number") == true)
    }
}
