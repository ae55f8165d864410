import ChatEvalLlama
import ChatEvalTestKit
import ChatEvalWorkspace
import Foundation
import Testing

/// A bisection's engines, one per distinct configuration of the commits' own settings, at most
/// `capacity` at once: the least recently used is freed when another loads, not only dropped
/// from the table while something else keeps it alive.
@Suite struct ConfiguredRuntimesTests {
    @Test func theLeastRecentlyUsedEngineIsFreedWhenAnotherLoads() async throws {
        let model = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let configurations = try [512, 1024, 2048, 512].map { context in
            try RunConfiguration.resolve(
                RunConfiguration.Overrides(models: [model], contextSizes: [context]), project: nil,
                projectFolder: URL(fileURLWithPath: "/"), environment: [:], warn: { _ in })
        }
        let runtimes = ConfiguredRuntimes(configurations, capacity: 2)
        weak var first = try await runtimes.runtime(for: 0) as? LlamaChatRuntime
        #expect(first != nil)
        #expect(try await runtimes.runtime(for: 3) === first, "the same configuration shares its engine")
        _ = try await runtimes.runtime(for: 1)
        #expect(first != nil, "two engines fit")
        _ = try await runtimes.runtime(for: 2)
        #expect(first == nil, "the least recently used engine was freed when a third loaded")
    }
}
