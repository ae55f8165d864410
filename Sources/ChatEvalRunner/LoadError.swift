import ChatEvalCore
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites

/// Why a load run cannot start, in one sentence.
public struct LoadError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
