import ChatEvalCompare
import ChatEvalRuntime

/// Where each bisected commit's runtime comes from. Contract: `runtime(for:)` gives the runtime
/// that replays state `index` (the same one until `release`), or throws `BisectSkip` when that
/// commit cannot be built or served; `release` says the state is not needed for now.
public protocol RevisionRuntimes: Sendable {
    func runtime(for index: Int) async throws -> any ChatRuntime
    func release(_ index: Int) async
}
