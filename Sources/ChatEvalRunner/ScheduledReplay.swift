import ChatEvalCore
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// One conversation replay in a run's schedule.
public struct ScheduledReplay: Sendable {
    /// The arm it belongs to ("base" or "head" in a paired run; nil in an ordinary run).
    public var arm: String?
    public var suite: String
    public var conversation: String
    /// 1-based; 0 for a warm-up replay.
    public var repetition: Int
    public var warmup: Bool { repetition == 0 }
}
