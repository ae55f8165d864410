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

/// Hears about a run's progress (a progress bar, CI log lines). Called from the run's task.
public protocol RunObserver: Sendable {
    func conversationStarted(suite: String, conversation: String, repetition: Int, warmup: Bool, index: Int, of total: Int) async
    func turnFinished(_ turn: ReplayedTurn, conversation: String) async
}

/// Replays a plan's suites against a runtime, recording as it goes: every finished turn is
/// journaled (and synced) at once; the result file is rewritten atomically after a conversation
/// when `rewriteInterval` has passed since it was last written, and at the end. Rewriting it after
/// every conversation would re-encode the whole run each time (quadratic in its length) for
/// nothing the journal does not already secure.
///
/// Order: warm-up conversations first, then repetition 1 of every conversation of every suite,
/// then repetition 2, ... — interleaved, so slow drift of the machine spreads over all of them.
public struct SuiteRunner: Sendable {
    public let runtime: any ChatRuntime
    public let plan: RunPlan
    /// Least time between two rewrites of the result file during the run, in seconds.
    public let rewriteInterval: Double

    public init(runtime: any ChatRuntime, plan: RunPlan, rewriteInterval: Double = 5) {
        self.runtime = runtime
        self.plan = plan
        self.rewriteInterval = rewriteInterval
    }

    /// Runs the plan into `record` (which must list no suites yet) and returns it, complete or,
    /// if `stop` was requested, incomplete. Throws only when the result cannot be written.
    public func run(into record: RunRecord, writer: ResultWriter, stop: StopRequest, observer: (any RunObserver)? = nil) async throws -> RunRecord {
        var record = record
        record.suites = plan.suites.map { SuiteRecord(name: $0.name, path: $0.path) }
        try writer.write(record)
        var sinceWrite = Stopwatch()

        let replayer = ConversationReplayer(runtime: runtime, cacheMode: plan.settings.cacheMode)
        var schedule: [(suite: Int, conversation: SuiteConversation, repetition: Int)] = plan.warmups.map { ($0.suite, $0.conversation, 0) }
        for repetition in 1...max(plan.settings.repetitions, 1) {
            for (index, suite) in plan.suites.enumerated() {
                schedule += suite.conversations.map { (index, $0, repetition) }
            }
        }

        for (position, item) in schedule.enumerated() {
            if stop.isRequested { break }
            let suite = plan.suites[item.suite]
            let warmup = item.repetition == 0
            await observer?.conversationStarted(
                suite: suite.name, conversation: item.conversation.id, repetition: item.repetition, warmup: warmup,
                index: position + 1, of: schedule.count)
            let journalingError = JournalingError()
            let turns = await replayer.replay(item.conversation.script, stop: stop) { turn in
                do {
                    try writer.journal(JournalEntry(suite: suite.name, conversation: item.conversation.id, repetition: item.repetition, warmup: warmup, turn: turn))
                } catch {
                    await journalingError.set(error)
                }
                await observer?.turnFinished(turn, conversation: item.conversation.id)
            }
            if let error = await journalingError.error { throw error }
            let script = item.conversation.script
            let graded = ConversationGrader.grade(item.conversation, turns: turns)
            record.suites[item.suite].conversations.append(ConversationRecord(
                id: item.conversation.id, repetition: item.repetition, warmup: warmup,
                systemPrompt: script.systemPrompt, options: script.options, turns: graded.turns, checks: graded.checks))
            if sinceWrite.elapsed >= rewriteInterval {
                try writer.write(record)
                sinceWrite = Stopwatch()
            }
        }

        for index in record.suites.indices {
            let measured = record.suites[index].conversations.filter { !$0.warmup }
            record.suites[index].gates = GateEvaluator.evaluate(plan.suites[index].gates, conversations: measured)
        }
        record.gatesPassed = record.suites.allSatisfy { $0.gates.allSatisfy(\.passed) }
        record.status = stop.isRequested ? .incomplete : .complete
        record.endedAt = Date()
        try writer.write(record)
        writer.finish()
        return record
    }
}

private actor JournalingError {
    private(set) var error: (any Error)?
    func set(_ error: any Error) { if self.error == nil { self.error = error } }
}
