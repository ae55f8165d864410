import ChatEvalCore
import ChatEvalSuites
import Foundation

extension RunConfiguration {
    /// `resolve` for a command: a configuration error is bad input (exit 2), its warnings printed.
    static func resolveForCommand(_ overrides: Overrides, project: ProjectFile?, projectFolder: URL) throws -> RunConfiguration {
        do {
            return try resolve(overrides, project: project, projectFolder: projectFolder, warn: warn)
        } catch {
            throw failure(error.description, .badInput)
        }
    }
}

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
