import ChatEvalCore
import Foundation

/// Shard `index` of `count` (1-based): a deterministic, conversation-atomic part of a run, made
/// to be joined with the other parts by `chateval merge`.
public struct RunShard: Codable, Sendable, Hashable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// The most shards a run is split into.
    public static let maximumCount = 1000

    /// `I/N` with 1 ≤ I ≤ N ≤ `maximumCount`; nil otherwise.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0].trimmingCharacters(in: .whitespaces)),
            let count = Int(parts[1].trimmingCharacters(in: .whitespaces)), (1...Self.maximumCount).contains(count),
            (1...count).contains(index)
        else { return nil }
        self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }
}
