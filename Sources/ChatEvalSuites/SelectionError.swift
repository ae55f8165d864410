import ChatEvalCore

/// A selection that picks nothing, or names a conversation a suite does not have.
public struct SelectionError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
