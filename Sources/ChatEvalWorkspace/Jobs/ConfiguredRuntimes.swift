import ChatEvalCompare
import ChatEvalLlama
import ChatEvalReport
import ChatEvalRunner
import ChatEvalRuntime

/// Each bisected commit's in-process runtime, from the commit's own settings: one engine per
/// distinct configuration (model and its sha256, template, context, threads, batch, sliding
/// window), loaded when first asked and kept while the search goes on, the `capacity` most
/// recently used at most (an engine evicted is freed: `EngineHold` no longer keeps it). A configuration that cannot be
/// loaded (a model missing or of another sha256, a template llama.cpp does not know) makes every
/// commit that asks for it unmeasurable: a lasting `BisectSkip` with the error's first line.
package actor ConfiguredRuntimes: RevisionRuntimes {
    private let configurations: [RunConfiguration?]
    /// State → the first state with an equal configuration (the engine they share).
    private let shared: [Int]
    private var loaded: [Int: (runtime: LlamaChatRuntime, sha256: String?)] = [:]
    private var recent: [Int] = []
    private var failed: [Int: String] = [:]
    private let capacity: Int

    /// - `configurations`: by state; nil for a commit whose settings did not load.
    package init(_ configurations: [RunConfiguration?], capacity: Int = 4) {
        self.configurations = configurations
        self.capacity = max(2, capacity)
        let keys = configurations.map { $0.map { ($0.runtimeConfiguration($0.primary), $0.primary.expectedSha256) } }
        shared = keys.indices.map { index in
            guard let key = keys[index] else { return index }
            return keys.firstIndex { $0?.0 == key.0 && $0?.1 == key.1 } ?? index
        }
    }

    package func runtime(for index: Int) async throws -> any ChatRuntime {
        guard configurations.indices.contains(index), let configuration = configurations[index] else {
            throw BisectSkip(state: index, reason: "its settings do not load", isLasting: true)
        }
        let key = shared[index]
        if let reason = failed[key] { throw BisectSkip(state: index, reason: reason, isLasting: true) }
        recent.removeAll { $0 == key }
        recent.append(key)
        if let engine = loaded[key] { return engine.runtime }
        do {
            let engine = try Workspace.loadRuntime(configuration, configuration.primary)
            loaded[key] = engine
            // Fewer engines held than commits: the least recently used one goes (its context freed).
            while loaded.count > capacity, let oldest = recent.first(where: { loaded[$0] != nil && $0 != key }) {
                if let evicted = loaded[oldest]?.runtime { EngineHold.release(evicted) }
                loaded[oldest] = nil
                recent.removeAll { $0 == oldest }
            }
            return engine.runtime
        } catch {
            let reason = "its runtime does not load: " + BisectRange.firstLine(error)
            failed[key] = reason
            throw BisectSkip(state: index, reason: reason, isLasting: true)
        }
    }

    package func release(_ index: Int) async {}

    package func modelSha256(for index: Int) async -> String? {
        guard shared.indices.contains(index) else { return nil }
        return loaded[shared[index]]?.sha256
    }
}
