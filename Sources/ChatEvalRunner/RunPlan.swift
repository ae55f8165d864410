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

    /// What the plan replays, as a person counts it: "1 suite: 8 conversations × 5 repetitions = 40
    /// replays (40 turns), no warm-up" — the conversations as written (with their variants, "4
    /// conversations × 2 variants"), not the replays they add up to; "; each of 2 models" when
    /// `models` run it one after the other.
    public func summary(models: Int = 1) -> String {
        let replayed = suites.reduce(0) { $0 + $1.conversations.count }
        let written = suites.reduce(0) { total, suite in total + Set(suite.conversations.map(\.baseID)).count }
        let variants = written > 0 && replayed % written == 0 && replayed > written ? replayed / written : 1
        let repetitions = settings.repetitions
        let measuredTurns = repetitions * suites.reduce(0) { $0 + $1.turnCount }
        let warmup = settings.warmupConversations
        return "\(Self.count(suites.count, "suite")): \(Self.count(variants > 1 ? written : replayed, "conversation"))"
            + (variants > 1 ? " × \(variants) variants" : "") + " × \(Self.count(repetitions, "repetition"))"
            + " = \(Self.count(replayed * repetitions, "replay")) (\(Self.count(measuredTurns, "turn")))"
            + (warmup == 0 ? ", no warm-up" : ", after \(Self.count(warmup, "warm-up conversation"))")
            + (models > 1 ? "; each of \(models) models" : "")
    }

    private static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    /// The warm-up conversations: the first ones of the run, cycled, `warmupConversations` of them.
    var warmups: [(suite: Int, conversation: SuiteConversation)] {
        let all = suites.enumerated().flatMap { index, suite in suite.conversations.map { (index, $0) } }
        guard !all.isEmpty else { return [] }
        return (0..<settings.warmupConversations).map { all[$0 % all.count] }
    }
}
