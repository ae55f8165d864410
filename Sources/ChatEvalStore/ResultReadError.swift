import ChatEvalCore

/// A problem reading a result file.
public struct ResultReadError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}
