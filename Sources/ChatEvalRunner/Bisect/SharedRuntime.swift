import ChatEvalCompare
import ChatEvalRuntime

/// One runtime for every commit: the suites are what the commits change, the engine is not.
public struct SharedRuntime: RevisionRuntimes {
    public let runtime: any ChatRuntime
    public let sha256: String?

    public init(_ runtime: any ChatRuntime, sha256: String? = nil) {
        self.runtime = runtime
        self.sha256 = sha256
    }

    public func runtime(for index: Int) async throws -> any ChatRuntime { runtime }
    public func release(_ index: Int) async {}
    public func modelSha256(for index: Int) async -> String? { sha256 }
}
