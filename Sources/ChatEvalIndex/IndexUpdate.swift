import ChatEvalCore
import ChatEvalStore
import Foundation

/// What an update did.
public struct IndexUpdate: Sendable, Equatable {
    /// Sources (files, or notes of one commit) read anew.
    public var read = 0
    /// Sources forgotten because they are gone.
    public var removed = 0
    /// Sources that hold nothing ChatEval can read, with why (reported once per change).
    public var unreadable: [String] = []

    public init(read: Int = 0, removed: Int = 0, unreadable: [String] = []) {
        self.read = read
        self.removed = removed
        self.unreadable = unreadable
    }

    public static func + (lhs: IndexUpdate, rhs: IndexUpdate) -> IndexUpdate {
        IndexUpdate(read: lhs.read + rhs.read, removed: lhs.removed + rhs.removed, unreadable: lhs.unreadable + rhs.unreadable)
    }
}
