import ChatEvalCore
import ChatEvalStore
import ChatEvalSuites

/// Every problem found in an answers file.
public struct AnswerFileErrors: Error, Sendable, CustomStringConvertible {
    public var errors: [AnswerFileError]
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
