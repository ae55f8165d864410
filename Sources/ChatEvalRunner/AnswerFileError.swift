import ChatEvalCore
import ChatEvalStore
import ChatEvalSuites

/// A problem in an answers file, located by line.
public struct AnswerFileError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String
    public var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): error: \(message)" }
}
