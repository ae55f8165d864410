import ChatEvalCore
import ChatEvalStore
import ChatEvalSuites

/// Why shards could not be merged, in one sentence.
public struct ShardMergeError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
