import ChatEvalCore
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// What a run replays and how often.
public struct RunPlan: Sendable {
    public var suites: [Suite]
    public var settings: RunSettings

    public init(suites: [Suite], settings: RunSettings) {
        self.suites = suites
        self.settings = settings
    }

    /// Conversations replayed in all, warm-up included.
    public var conversationCount: Int {
        settings.warmupConversations + settings.repetitions * suites.reduce(0) { $0 + $1.conversations.count }
    }

    public var turnCount: Int {
        let warmupTurns = warmups.reduce(0) { $0 + $1.conversation.script.userMessages.count }
        return warmupTurns + settings.repetitions * suites.reduce(0) { $0 + $1.turnCount }
    }

    /// The warm-up conversations: the first ones of the run, cycled, `warmupConversations` of them.
    var warmups: [(suite: Int, conversation: SuiteConversation)] {
        let all = suites.enumerated().flatMap { index, suite in suite.conversations.map { (index, $0) } }
        guard !all.isEmpty else { return [] }
        return (0..<settings.warmupConversations).map { all[$0 % all.count] }
    }
}
