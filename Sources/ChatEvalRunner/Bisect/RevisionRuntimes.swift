import ChatEvalCompare
import ChatEvalRuntime

/// Where each bisected commit's runtime comes from. Contract: `runtime(for:)` gives the runtime
/// that replays state `index` (the same one until `release`), or throws `BisectSkip` when that
/// commit cannot be built, served or loaded; `release` says the state is not needed for now.
public protocol RevisionRuntimes: Sendable {
    func runtime(for index: Int) async throws -> any ChatRuntime
    func release(_ index: Int) async
    /// The sha256 of the model state `index` replays, for its records; nil where unknown (a
    /// served runtime). Asked after `runtime(for:)`.
    func modelSha256(for index: Int) async -> String?
}

extension RevisionRuntimes {
    public func modelSha256(for index: Int) async -> String? { nil }
}
