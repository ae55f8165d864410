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

/// Hears about a run's progress (a progress bar, CI log lines). Called from the run's task.
public protocol RunObserver: Sendable {
    func conversationStarted(_ replay: ScheduledReplay, index: Int, of total: Int) async
    func turnFinished(_ turn: ReplayedTurn, conversation: String) async
    /// Every replay of a suite is done (its gates are evaluated when the whole run ends).
    func suiteFinished(_ suite: SuiteRecord, arm: String?) async
}

extension RunObserver {
    public func suiteFinished(_ suite: SuiteRecord, arm: String?) async {}
}

/// What one side of a run replays: a runtime and a plan, recorded into its own record and file.
public struct RunArm: Sendable {
    /// "base" or "head" in a paired run, for progress lines; nil in an ordinary run.
    public var label: String?
    public var runtime: any ChatRuntime
    public var plan: RunPlan

    public init(label: String? = nil, runtime: any ChatRuntime, plan: RunPlan) {
        self.label = label
        self.runtime = runtime
        self.plan = plan
    }
}

/// Replays plans against runtimes, recording as it goes: every finished turn is journaled (and
/// synced) at once; each result file is rewritten atomically after a conversation when
/// `rewriteInterval` has passed since it was last written, and at the end. Rewriting it after
/// every conversation would re-encode the whole run each time (quadratic in its length) for
/// nothing the journal does not already secure.
///
/// Order: warm-up conversations first, then repetition 1 of every conversation of every suite,
/// then repetition 2, ... — interleaved, so slow drift of the machine spreads over all of them.
/// With two arms (`run --baseline`), the arms alternate conversation by conversation, and which
/// goes first alternates too, so that drift and any order effect hit both alike.
public struct SuiteRunner: Sendable {
    public let arms: [RunArm]
    /// Least time between two rewrites of a result file during the run, in seconds.
    public let rewriteInterval: Double
    /// Keep every turn's rendered prompt in the record (`run --print-prompt`).
    public let keepsPrompts: Bool

    public init(arms: [RunArm], rewriteInterval: Double = 5, keepsPrompts: Bool = false) {
        self.arms = arms
        self.rewriteInterval = rewriteInterval
        self.keepsPrompts = keepsPrompts
    }

    /// An ordinary run: one runtime, one plan.
    public init(runtime: any ChatRuntime, plan: RunPlan, rewriteInterval: Double = 5, keepsPrompts: Bool = false) {
        self.init(arms: [RunArm(runtime: runtime, plan: plan)], rewriteInterval: rewriteInterval, keepsPrompts: keepsPrompts)
    }

    /// An ordinary run into `record` (which must list no suites yet); see `run(into:writers:stop:observer:)`.
    public func run(into record: RunRecord, writer: ResultWriter, stop: StopRequest, observer: (any RunObserver)? = nil) async throws -> RunRecord {
        try await run(into: [record], writers: [writer], stop: stop, observer: observer)[0]
    }

    /// Runs every arm into its record (one per arm, listing no suites yet) and returns them,
    /// complete or, if `stop` was requested, incomplete. Cancelling the task cancels the turn in
    /// progress (recorded as `cancelled`), skips the rest, and still writes what was measured.
    /// Throws only when a result cannot be written (a `ResultWriteError` naming the file).
    public func run(into records: [RunRecord], writers: [ResultWriter], stop: StopRequest, observer: (any RunObserver)? = nil) async throws -> [RunRecord] {
        precondition(records.count == arms.count && writers.count == arms.count, "one record and one writer per arm")
        var records = records
        for (arm, index) in zip(arms, records.indices) {
            records[index].suites = arm.plan.suites.map(SuiteRecord.init(of:))
            try writers[index].write(records[index])
        }
        var sinceWrite = Array(repeating: Stopwatch(), count: arms.count)
        let replayers = arms.map { ConversationReplayer(runtime: $0.runtime, cacheMode: $0.plan.settings.cacheMode, keepsPrompts: keepsPrompts) }
        let schedule = Self.schedule(arms)
        struct SuiteKey: Hashable { var arm: Int; var suite: Int }
        let lastReplay = Dictionary(schedule.enumerated().map { (SuiteKey(arm: $1.arm, suite: $1.suite), $0) }, uniquingKeysWith: max)

        for (position, item) in schedule.enumerated() {
            if stop.isRequested || Task.isCancelled { break }
            let arm = arms[item.arm]
            let suite = arm.plan.suites[item.suite]
            let replay = ScheduledReplay(arm: arm.label, suite: suite.name, conversation: item.conversation.id, repetition: item.repetition)
            await observer?.conversationStarted(replay, index: position + 1, of: schedule.count)
            let journalingError = JournalingError()
            let writer = writers[item.arm]
            let turns = await replayers[item.arm].replay(item.conversation.script, stop: stop) { turn in
                do {
                    try writer.journal(JournalEntry(suite: suite.name, conversation: item.conversation.id, repetition: item.repetition,
                                                    warmup: replay.warmup, turn: turn))
                } catch {
                    await journalingError.set(error)
                }
                await observer?.turnFinished(turn, conversation: item.conversation.id)
            }
            if let error = await journalingError.error { throw error }
            records[item.arm].suites[item.suite].conversations.append(
                .graded(item.conversation, turns: turns, repetition: item.repetition, warmup: replay.warmup))
            if lastReplay[SuiteKey(arm: item.arm, suite: item.suite)] == position {
                await observer?.suiteFinished(records[item.arm].suites[item.suite], arm: arm.label)
            }
            if sinceWrite[item.arm].elapsed >= rewriteInterval {
                try writer.write(records[item.arm])
                sinceWrite[item.arm] = Stopwatch()
            }
        }

        for (arm, index) in zip(arms, records.indices) {
            GateEvaluator.evaluate(&records[index], suites: arm.plan.suites)
            records[index].status = stop.isRequested || Task.isCancelled ? .incomplete : .complete
            records[index].endedAt = Date()
            try writers[index].write(records[index])
            writers[index].finish()
        }
        return records
    }

    struct ScheduleItem {
        var arm: Int
        var suite: Int
        var conversation: SuiteConversation
        /// 0 for warm-up.
        var repetition: Int
    }

    /// Warm-ups of every arm (alternating), then each repetition of every conversation, the arms
    /// that have a conversation replaying it one after the other, the first alternating with
    /// each conversation and each repetition.
    static func schedule(_ arms: [RunArm]) -> [ScheduleItem] {
        var items: [ScheduleItem] = []
        let warmups = arms.map(\.plan.warmups)
        for index in 0..<(warmups.map(\.count).max() ?? 0) {
            for (arm, list) in warmups.enumerated() where index < list.count {
                items.append(ScheduleItem(arm: arm, suite: list[index].suite, conversation: list[index].conversation, repetition: 0))
            }
        }
        // Conversations by (suite name, id), in the order the arms list them (first arm first).
        struct Key: Hashable { var suite: String; var conversation: String }
        var order: [Key] = []
        var places: [Key: [Int: (suite: Int, conversation: SuiteConversation)]] = [:]
        for (arm, runArm) in arms.enumerated() {
            for (suiteIndex, suite) in runArm.plan.suites.enumerated() {
                for conversation in suite.conversations {
                    let key = Key(suite: suite.name, conversation: conversation.id)
                    if places[key] == nil { order.append(key) }
                    places[key, default: [:]][arm] = (suiteIndex, conversation)
                }
            }
        }
        let repetitions = arms.map { max($0.plan.settings.repetitions, 1) }
        for repetition in 1...(repetitions.max() ?? 1) {
            for (position, key) in order.enumerated() {
                var armOrder = Array(arms.indices)
                if (repetition + position) % 2 == 1 { armOrder.reverse() }
                for arm in armOrder where repetition <= repetitions[arm] {
                    guard let place = places[key]?[arm] else { continue }
                    items.append(ScheduleItem(arm: arm, suite: place.suite, conversation: place.conversation, repetition: repetition))
                }
            }
        }
        return items
    }
}

private actor JournalingError {
    private(set) var error: (any Error)?
    func set(_ error: any Error) { if self.error == nil { self.error = error } }
}
