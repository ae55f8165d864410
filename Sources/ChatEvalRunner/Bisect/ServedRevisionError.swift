import ChatEvalCompare
import ChatEvalRuntime
import Foundation

/// A command that could not be started at all.
public struct ServedRevisionError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
