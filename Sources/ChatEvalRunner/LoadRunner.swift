import ChatEvalCore
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// Replays a plan with N conversations in flight at once against a served runtime
/// (`run --concurrency N`), recording every turn as `SuiteRunner` does, and summarises the load:
/// requests/s, output tokens/s, TTFT and ITL percentiles under that load, error rate and goodput
/// against the suites' objectives (`LoadSummary`).
///
/// Each of the N workers owns one of the N runtimes given, takes the next
/// conversation of the schedule (repetition 1 of every conversation, then 2, ...) when its
/// previous one ends, and replays it turn by turn — a closed loop of N users, as vLLM's
/// `--max-concurrency` and AIPerf's concurrency mode drive a server. Warm-up conversations run
/// first, at the same concurrency, outside the measured window. The record lists conversations
/// in schedule order whatever order they finished in.
public struct LoadRunner: Sendable {
    public let plan: RunPlan
    public let concurrency: Int
    /// Ties the records of the levels of one sweep.
    public let sweepId: String?
    private let runtimes: [any ChatRuntime]

    /// One runtime per conversation in flight: the concurrency is `runtimes.count`. Refuses an
    /// in-process runtime above concurrency 1: it answers one conversation at a time, so "N at
    /// once" would measure a queue, not a load.
    public init(plan: RunPlan, runtimes: [any ChatRuntime], sweepId: String? = nil) throws(LoadError) {
        guard !runtimes.isEmpty else { throw LoadError("concurrency must be at least 1") }
        if runtimes.count > 1, runtimes.contains(where: \.runsInProcess) {
            throw LoadError(
                "concurrency \(runtimes.count) needs a served runtime (--runtime openai): "
                    + "the in-process runtime answers one conversation at a time"
            )
        }
        if Set(runtimes.map { ObjectIdentifier($0) }).count < runtimes.count {
            throw LoadError("each conversation in flight needs its own runtime; the same one was given twice")
        }
        self.plan = plan
        self.runtimes = runtimes
        self.concurrency = runtimes.count
        self.sweepId = sweepId
    }

    /// Runs into `record` (listing no suites yet) and returns it with its `load` summary; see
    /// `SuiteRunner.run` for stopping, cancelling and what is written when.
    public func run(into record: RunRecord, writer: ResultWriter, stop: StopRequest, observer: (any RunObserver)? = nil) async throws
        -> RunRecord
    {
        var record = record
        record.suites = SuiteRunner.suiteRecords(plan, for: record)
        try writer.write(record)
        let schedule = SuiteRunner.schedule([RunArm(runtime: runtimes[0], plan: plan)])
        let collected = Collected(record: record)

        let warmups = schedule.enumerated().filter { $0.element.repetition == 0 }
        let measured = schedule.enumerated().filter { $0.element.repetition > 0 }
        try await replay(
            warmups, total: schedule.count, runtimes: runtimes, into: collected, writer: writer, stop: stop, observer: observer)
        let clock = Stopwatch()
        try await replay(
            measured, total: schedule.count, runtimes: runtimes, into: collected, writer: writer, stop: stop, observer: observer)
        let duration = clock.elapsed

        record = await collected.ordered()
        try SuiteRunner.finish(&record, plan: plan, writer: writer, interrupted: stop.isRequested || Task.isCancelled)
        let objectives = Dictionary(
            plan.suites.compactMap { suite in suite.slo.map { (suite.name, $0) } }, uniquingKeysWith: { first, _ in first })
        record.load = LoadSummary.summarize(
            record.suites, objectives: objectives, concurrency: concurrency, duration: duration, sweepId: sweepId)
        try writer.write(record)
        return record
    }

    /// Replays `items` with one worker per runtime, each taking the next item when it is free.
    private func replay(
        _ items: [(offset: Int, element: SuiteRunner.ScheduleItem)], total: Int, runtimes: [any ChatRuntime], into collected: Collected,
        writer: ResultWriter, stop: StopRequest, observer: (any RunObserver)?
    ) async throws {
        let queue = WorkQueue(count: items.count)
        let plan = self.plan
        try await withThrowingTaskGroup(of: Void.self) { group in
            for runtime in runtimes {
                let replayer = ConversationReplayer(runtime: runtime, cacheMode: plan.settings.cacheMode)
                group.addTask {
                    while let next = await queue.next() {
                        if stop.isRequested || Task.isCancelled { return }
                        let (position, item) = items[next]
                        let suite = plan.suites[item.suite]
                        await observer?.conversationStarted(
                            ScheduledReplay(arm: nil, suite: suite.name, conversation: item.conversation.id, repetition: item.repetition),
                            index: position + 1, of: total)
                        let conversation = try await SuiteRunner.replay(
                            item.conversation, of: suite.name, repetition: item.repetition, with: replayer,
                            writer: writer, stop: stop, observer: observer)
                        try await collected.add(conversation, suite: item.suite, position: position, writer: writer)
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}

/// Hands out item numbers 0..<count, each once.
private actor WorkQueue {
    private var position = 0
    private let count: Int
    init(count: Int) { self.count = count }

    func next() -> Int? {
        guard position < count else { return nil }
        defer { position += 1 }
        return position
    }
}

/// The record as conversations finish, rewritten at most every 5 seconds like `SuiteRunner`'s.
private actor Collected {
    private var record: RunRecord
    private var finished: [(suite: Int, position: Int, conversation: ConversationRecord)] = []
    private var sinceWrite = Stopwatch()

    init(record: RunRecord) { self.record = record }

    func add(_ conversation: ConversationRecord, suite: Int, position: Int, writer: ResultWriter) throws {
        finished.append((suite, position, conversation))
        if sinceWrite.elapsed >= 5 {
            try writer.write(ordered())
            sinceWrite = Stopwatch()
        }
    }

    /// The record with every finished conversation, in schedule order.
    func ordered() -> RunRecord {
        var result = record
        for item in finished.sorted(by: { $0.position < $1.position }) {
            result.suites[item.suite].conversations.append(item.conversation)
        }
        return result
    }
}
