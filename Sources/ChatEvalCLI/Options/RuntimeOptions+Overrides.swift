import ChatEvalCore
import ChatEvalWorkspace

extension RuntimeOptions {
    /// The settings this command line gives, beside what the run command adds (nil: not given).
    func overrides(
        suitePaths: [String]?, reportsFolder: String?, cacheMode: CacheMode? = nil, repetitions: Int? = nil, maxRepetitions: Int? = nil,
        timeBudget: Double? = nil, warmup: Int? = nil
    ) -> RunConfiguration.Overrides {
        RunConfiguration.Overrides(
            models: models.isEmpty ? nil : models, chatTemplates: chatTemplates.isEmpty ? nil : chatTemplates,
            contextSizes: contextSizes.isEmpty ? nil : contextSizes, threads: threads, batchSize: batchSize,
            slidingWindowCache: slidingWindowCache, cacheMode: cacheMode, repetitions: repetitions, maxRepetitions: maxRepetitions,
            timeBudget: timeBudget, warmup: warmup, suitePaths: suitePaths, reportsFolder: reportsFolder)
    }
}
