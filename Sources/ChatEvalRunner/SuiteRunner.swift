import ChatEvalCore
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import Foundation

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
///
/// Every replay records how busy the machine was while it ran (`ReplayLoad`). With
/// `busyRetries` > 0, a conversation's replays of one repetition (one per arm) are measured
/// again when other processes held the cores unequally during them (one arm's load exceeds the
/// other's by `busyThreshold` cores or more) — the disturbed ones stay in the record, marked
/// `leftOut` — at most that many times, and at most once for every four of a
/// round's repetitions of conversations in all: under load that does not pass (a compile beside
/// the run), measuring again only doubles the time, so the rest are left out at once.
public struct SuiteRunner: Sendable {
    public let arms: [RunArm]
    /// Least time between two rewrites of a result file during the run, in seconds.
    public let rewriteInterval: Double
    /// Keep every turn's rendered prompt in the record (`run --print-prompt`).
    public let keepsPrompts: Bool
    /// How often a disturbed repetition of a conversation is measured again (0: never).
    public let busyRetries: Int
    /// Cores other processes may use during a replay before it counts as disturbed.
    public let busyThreshold: Double
    /// Measures the machine's load around a replay: called as it starts, its result as it ends.
    public let loadProbe: LoadProbe

    /// Starts measuring; the closure it returns ends the measurement.
    public typealias LoadProbe = @Sendable () -> @Sendable () -> ReplayLoad?

    /// The machine's own load, from /proc.
    public static let machineLoad: LoadProbe = {
        let meter = LoadMeter()
        return { meter.stop() }
    }

    public init(
        arms: [RunArm], rewriteInterval: Double = 5, keepsPrompts: Bool = false, busyRetries: Int = 0,
        busyThreshold: Double = ComparisonSettings.defaultBusyThreshold, loadProbe: @escaping LoadProbe = SuiteRunner.machineLoad
    ) {
        self.arms = arms
        self.busyThreshold = busyThreshold
        self.rewriteInterval = rewriteInterval
        self.keepsPrompts = keepsPrompts
        self.busyRetries = busyRetries
        self.loadProbe = loadProbe
    }

    /// An ordinary run: one runtime, one plan.
    public init(runtime: any ChatRuntime, plan: RunPlan, rewriteInterval: Double = 5, keepsPrompts: Bool = false) {
        self.init(arms: [RunArm(runtime: runtime, plan: plan)], rewriteInterval: rewriteInterval, keepsPrompts: keepsPrompts)
    }

    /// An ordinary run into `record` (which must list no suites yet); see `run(into:writers:stop:observer:)`.
    public func run(into record: RunRecord, writer: ResultWriter, stop: StopRequest, observer: (any RunObserver)? = nil) async throws
        -> RunRecord
    {
        try await run(into: [record], writers: [writer], stop: stop, observer: observer)[0]
    }

    /// Runs every arm into its record (one per arm, listing no suites yet) and returns them,
    /// complete or, if `stop` was requested, incomplete. Cancelling the task cancels the turn in
    /// progress (recorded as `cancelled`), skips the rest, and still writes what was measured.
    /// Throws only when a result cannot be written (a `ResultWriteError` naming the file).
    public func run(into records: [RunRecord], writers: [ResultWriter], stop: StopRequest, observer: (any RunObserver)? = nil) async throws
        -> [RunRecord]
    {
        var records = try begin(records, writers: writers)
        let last = arms.map { max($0.plan.settings.repetitions, 1) }.max() ?? 1
        try await replay(repetitions: 1...last, into: &records, writers: writers, stop: stop, observer: observer)
        try finish(&records, writers: writers, interrupted: stop.isRequested || Task.isCancelled)
        return records
    }

    // MARK: In rounds

    /// The records with their suites listed and nothing replayed, written once.
    public func begin(_ records: [RunRecord], writers: [ResultWriter]) throws -> [RunRecord] {
        precondition(records.count == arms.count && writers.count == arms.count, "one record and one writer per arm")
        var records = records
        for (arm, index) in zip(arms, records.indices) {
            records[index].suites = Self.suiteRecords(arm.plan, for: records[index])
            try writers[index].write(records[index])
        }
        return records
    }

    /// Replays `repetitions` of every conversation (the warm-ups too when the range starts at 1)
    /// into `records`, interleaved as described above; an arm whose plan has fewer repetitions
    /// stops at its own count. Stops early (leaving the rest) when `stop` is requested or the task
    /// is cancelled. Past `deadline` (by `clock`) it measures nothing again and starts no new slot
    /// (the first always runs), and returns false; else true. Throws only when a result cannot be
    /// written.
    @discardableResult
    // Longer than 80 lines because one slot loop interleaves arms, retries disturbed replays and honours deadline and stop.
    public func replay(
        repetitions: ClosedRange<Int>, into records: inout [RunRecord], writers: [ResultWriter], stop: StopRequest,
        observer: (any RunObserver)? = nil, deadline: Double? = nil,
        clock: @escaping @Sendable () -> Double = PairedRun.now
    ) async throws -> Bool {
        let pastDeadline = { deadline.map { clock() >= $0 } ?? false }
        var finished = true
        var sinceWrite = Array(repeating: Stopwatch(), count: arms.count)
        let replayers = arms.map {
            ConversationReplayer(runtime: $0.runtime, cacheMode: $0.plan.settings.cacheMode, keepsPrompts: keepsPrompts)
        }
        let schedule = Self.schedule(arms, repetitions: repetitions)
        struct SuiteKey: Hashable {
            var arm: Int
            var suite: Int
        }
        let lastReplay = Dictionary(schedule.enumerated().map { (SuiteKey(arm: $1.arm, suite: $1.suite), $0) }, uniquingKeysWith: max)

        var position = 0
        // Measuring again, for the whole call: a quarter of its conversation repetitions, at least 2.
        let slots = Set(schedule.filter { $0.repetition > 0 }.map { "\($0.key.suite)\u{0}\($0.key.conversation)\u{0}\($0.repetition)" })
            .count
        var retryBudget = max(2, slots / 4)
        while position < schedule.count {
            if position > 0, pastDeadline() {
                finished = false
                break
            }
            // A slot: the arms' replays of one conversation and repetition (consecutive items).
            var end = position + 1
            while end < schedule.count, schedule[end].repetition == schedule[position].repetition, schedule[end].repetition > 0,
                schedule[end].key == schedule[position].key
            { end += 1 }
            var attempt = 1
            while true {
                var placed: [(arm: Int, suite: Int, index: Int)] = []
                for offset in position..<end {
                    if stop.isRequested || Task.isCancelled { break }
                    let item = schedule[offset]
                    let arm = arms[item.arm]
                    let suite = arm.plan.suites[item.suite]
                    let replay = ScheduledReplay(
                        arm: arm.label, suite: suite.name, conversation: item.conversation.id, repetition: item.repetition)
                    await observer?.conversationStarted(replay, index: offset + 1, of: schedule.count)
                    let measuring = loadProbe()
                    var conversation = try await Self.replay(
                        item.conversation, of: suite.name, repetition: item.repetition, attempt: attempt, with: replayers[item.arm],
                        writer: writers[item.arm], stop: stop, observer: observer)
                    conversation.load = measuring()
                    records[item.arm].suites[item.suite].conversations.append(conversation)
                    placed.append((item.arm, item.suite, records[item.arm].suites[item.suite].conversations.count - 1))
                }
                // Measure the slot again when other processes disturbed its arms unequally (paired
                // runs), within the retries. A steady load that both arms ran beside is noise the
                // pairing cancels, kept: on a runner busy throughout, leaving out every disturbed
                // replay left nothing to compare.
                let loads = placed.compactMap { records[$0.arm].suites[$0.suite].conversations[$0.index].load?.otherCores }
                let busiest = loads.max() ?? 0, calmest = loads.min() ?? 0
                let unequal = loads.count > 1 && busiest - calmest >= busyThreshold
                guard busyRetries > 0, schedule[position].repetition > 0, unequal, !(stop.isRequested || Task.isCancelled) else {
                    break
                }
                let retry = attempt <= busyRetries && retryBudget > 0 && !pastDeadline()
                if retry { retryBudget -= 1 }
                for place in placed {
                    records[place.arm].suites[place.suite].conversations[place.index].leftOut = String(
                        format: "other processes used %.2f cores while one arm of this repetition was measured, %.2f while the other%@",
                        busiest, calmest,
                        retry ? "; measured again" : attempt > 1 ? "; left out after \(attempt - 1) more tries" : "; left out")
                }
                guard retry else { break }
                attempt += 1
            }
            for offset in position..<end {
                let item = schedule[offset]
                if lastReplay[SuiteKey(arm: item.arm, suite: item.suite)] == offset {
                    await observer?.suiteFinished(records[item.arm].suites[item.suite], arm: arms[item.arm].label)
                }
                if sinceWrite[item.arm].elapsed >= rewriteInterval {
                    try writers[item.arm].write(records[item.arm])
                    sinceWrite[item.arm] = Stopwatch()
                }
            }
            if stop.isRequested || Task.isCancelled { break }
            let repetition = schedule[position].repetition
            if repetition > 0, repetition < repetitions.upperBound, end == schedule.count || schedule[end].repetition != repetition {
                await observer?.repetitionFinished(repetition, of: repetitions.upperBound, records: records)
            }
            position = end
        }
        return finished
    }

    /// Evaluates every arm's gates, sets its status, writes its result file and removes its journal.
    public func finish(_ records: inout [RunRecord], writers: [ResultWriter], interrupted: Bool) throws {
        for (arm, index) in zip(arms, records.indices) {
            try Self.finish(&records[index], plan: arm.plan, writer: writers[index], interrupted: interrupted)
        }
    }

    /// The records of `plan`'s suites before anything ran; a shard's keep their suite's text
    /// (for `chateval merge`).
    static func suiteRecords(_ plan: RunPlan, for record: RunRecord) -> [SuiteRecord] {
        plan.suites.map { SuiteRecord(of: $0, keepingText: record.shard != nil) }
    }

    /// Replays one conversation, journaling every turn as it finishes, and grades it. Throws only
    /// when the journal cannot be written.
    static func replay(
        _ conversation: SuiteConversation, of suite: String, repetition: Int, attempt: Int = 1, with replayer: ConversationReplayer,
        writer: ResultWriter, stop: StopRequest, observer: (any RunObserver)?
    ) async throws -> ConversationRecord {
        let journalingError = JournalingError()
        // A sampled conversation draws a new sample each repetition (`forRepetition`); its record keeps the seed used.
        let conversation = {
            var sampled = conversation
            sampled.script.options = conversation.script.options.forRepetition(repetition)
            return sampled
        }()
        let turns = await replayer.replay(conversation.script, stop: stop) { turn in
            do {
                try writer.journal(
                    JournalEntry(
                        suite: suite, conversation: conversation.id, repetition: repetition,
                        warmup: repetition == 0, turn: turn, attempt: attempt > 1 ? attempt : nil))
            } catch {
                await journalingError.set(error)
            }
            await observer?.turnFinished(turn, conversation: conversation.id)
        }
        if let error = await journalingError.error { throw error }
        let graded = ConversationRecord.graded(conversation, turns: turns, repetition: repetition, warmup: repetition == 0)
        await observer?.conversationGraded(graded)
        return graded
    }

    /// Evaluates the gates over the measured replays, sets the status, writes the result file
    /// and removes the journal.
    static func finish(_ record: inout RunRecord, plan: RunPlan, writer: ResultWriter, interrupted: Bool) throws {
        GateEvaluator.evaluate(&record, suites: plan.suites)
        record.status = interrupted ? .incomplete : .complete
        record.endedAt = Date()
        try writer.write(record)
        writer.finish()
    }

    struct ScheduleItem {
        var arm: Int
        var suite: Int
        var conversation: SuiteConversation
        /// 0 for warm-up.
        var repetition: Int
        var suiteName: String
        /// The conversation across arms: suite name and conversation id.
        var key: ConversationKey { ConversationKey(suite: suiteName, conversation: conversation.id) }
    }

    struct ConversationKey: Hashable {
        var suite: String
        var conversation: String
    }

    /// Warm-ups of every arm (alternating) when `repetitions` starts at 1, then each repetition of
    /// every conversation, the arms that have a conversation replaying it one after the other, the
    /// first alternating with each conversation and each repetition.
    static func schedule(_ arms: [RunArm], repetitions range: ClosedRange<Int>? = nil) -> [ScheduleItem] {
        var items: [ScheduleItem] = []
        let counts = arms.map { max($0.plan.settings.repetitions, 1) }
        let range = range ?? 1...(counts.max() ?? 1)
        if range.lowerBound <= 1 {
            let warmups = arms.map(\.plan.warmups)
            for index in 0..<(warmups.map(\.count).max() ?? 0) {
                for (arm, list) in warmups.enumerated() where index < list.count {
                    items.append(
                        ScheduleItem(
                            arm: arm, suite: list[index].suite, conversation: list[index].conversation, repetition: 0,
                            suiteName: arms[arm].plan.suites[list[index].suite].name))
                }
            }
        }
        // Conversations by (suite name, id), in the order the arms list them (first arm first).
        var order: [ConversationKey] = []
        var places: [ConversationKey: [Int: (suite: Int, conversation: SuiteConversation)]] = [:]
        for (arm, runArm) in arms.enumerated() {
            for (suiteIndex, suite) in runArm.plan.suites.enumerated() {
                for conversation in suite.conversations {
                    let key = ConversationKey(suite: suite.name, conversation: conversation.id)
                    if places[key] == nil { order.append(key) }
                    places[key, default: [:]][arm] = (suiteIndex, conversation)
                }
            }
        }
        for repetition in range where repetition >= 1 {
            for (position, key) in order.enumerated() {
                var armOrder = Array(arms.indices)
                if (repetition + position) % 2 == 1 { armOrder.reverse() }
                for arm in armOrder where repetition <= counts[arm] {
                    guard let place = places[key]?[arm] else { continue }
                    items.append(
                        ScheduleItem(
                            arm: arm, suite: place.suite, conversation: place.conversation, repetition: repetition,
                            suiteName: key.suite))
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
