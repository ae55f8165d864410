import ChatEvalCore
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// Hears about a run's progress (a progress bar, CI log lines). Called from the run's task.
public protocol RunObserver: Sendable {
    func conversationStarted(_ replay: ScheduledReplay, index: Int, of total: Int) async
    func turnFinished(_ turn: ReplayedTurn, conversation: String) async
    /// A replay is over and graded: its checks say which failed turns were expected to fail.
    func conversationGraded(_ conversation: ConversationRecord) async
    /// Every replay of a suite is done (its gates are evaluated when the whole run ends).
    func suiteFinished(_ suite: SuiteRecord, arm: String?) async
    /// A paired run compared its sides after a round (one line: the look and what is undecided).
    func lookTaken(_ summary: String) async
    /// Every conversation has run `repetition` times of `of` (called when more are to come):
    /// `records` as measured so far.
    func repetitionFinished(_ repetition: Int, of total: Int, records: [RunRecord]) async
}

extension RunObserver {
    public func conversationGraded(_ conversation: ConversationRecord) async {}
    public func suiteFinished(_ suite: SuiteRecord, arm: String?) async {}
    public func lookTaken(_ summary: String) async {}
    public func repetitionFinished(_ repetition: Int, of total: Int, records: [RunRecord]) async {}
}
