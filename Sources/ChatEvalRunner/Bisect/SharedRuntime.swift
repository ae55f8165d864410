import ChatEvalCompare
import ChatEvalRuntime

/// One runtime for every commit: the suites are what the commits change, the engine is not.
public struct SharedRuntime: RevisionRuntimes {
    public let runtime: any ChatRuntime

    public init(_ runtime: any ChatRuntime) { self.runtime = runtime }

    public func runtime(for index: Int) async throws -> any ChatRuntime { runtime }
    public func release(_ index: Int) async {}
}
