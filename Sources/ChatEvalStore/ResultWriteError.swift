import ChatEvalCore

/// A result file or journal that could not be written, naming it.
public struct ResultWriteError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}
