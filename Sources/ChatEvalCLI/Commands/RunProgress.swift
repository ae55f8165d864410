import ChatEvalCore
import ChatEvalReport
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import Foundation
import Synchronization

/// Shows a run's progress on stderr: a redrawn bar with counts and ETA on a terminal; in CI (no
/// terminal, or `CI` set) one plain line per conversation, which logs read well.
actor RunProgress: RunObserver {
    private let totalTurns: Int
    private let repetitions: Int
    private let interactive: Bool
    private let clock = ContinuousClock.now
    private var finishedTurns = 0
    private var current = ""
    private var conversationTurns: [ReplayedTurn] = []

    private let suiteLinesToStandardOutput: Bool

    /// `suiteLinesToStandardOutput`: false when another report format holds standard output
    /// (the suites' lines then go to standard error with the rest of the progress).
    /// True when `totalTurns` is the most the run may take (a paired run adding rounds until
    /// decided): the counts and the ETA say "at most".
    private let atMost: Bool

    init(totalTurns: Int, repetitions: Int, suiteLinesToStandardOutput: Bool = true, atMost: Bool = false) {
        self.atMost = atMost
        self.totalTurns = totalTurns
        self.repetitions = repetitions
        self.suiteLinesToStandardOutput = suiteLinesToStandardOutput
        let ci = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty && $0 != "false" && $0 != "0" } ?? false
        interactive = isatty(STDERR_FILENO) == 1 && !ci
    }

    func conversationStarted(_ replay: ScheduledReplay, index: Int, of total: Int) {
        finishPlainLine()
        let label = replay.warmup ? " warm-up" : repetitions > 1 ? " rep \(replay.repetition)" : ""
        current = "[\(index)/\(total)] " + (replay.arm.map { "\($0) " } ?? "") + "\(Terminal.safe(replay.suite))/\(Terminal.safe(replay.conversation))\(label)"
        conversationTurns = []
        draw()
    }

    func turnFinished(_ turn: ReplayedTurn, conversation: String) {
        finishedTurns += 1
        conversationTurns.append(turn)
        draw()
    }

    /// Prints the suite's line on standard output as soon as its last replay is done (the report
    /// at the end repeats it, with the gates).
    func suiteFinished(_ suite: SuiteRecord, arm: String?) {
        finishPlainLine()
        if interactive { write("\r\u{1B}[2K") }
        let line = "done      " + (arm.map { "\($0) " } ?? "") + RunSummary.SuiteLine(suite, label: nil).progressLine
        if suiteLinesToStandardOutput { say(line) } else { complain(line) }
        draw()
    }

    /// A paired run's look after a round: what it decided, what is still open.
    func lookTaken(_ summary: String) {
        finishPlainLine()
        if interactive { write("\r\u{1B}[2K") }
        let line = "look      " + Terminal.safe(summary)
        if suiteLinesToStandardOutput { say(line) } else { complain(line) }
        draw()
    }

    /// Ends the progress display (clears the bar, or prints the last plain line).
    func finish() {
        finishPlainLine()
        if interactive { write("\r\u{1B}[2K") }
    }

    private func draw() {
        guard interactive else { return }
        let width = 24
        let done = totalTurns > 0 ? min(finishedTurns * width / totalTurns, width) : width
        let bar = String(repeating: "█", count: done) + String(repeating: "░", count: width - done)
        write("\r\u{1B}[2K\(bar) \(finishedTurns)/\(atMost ? "≤" : "")\(totalTurns) turns · \(current) · ETA \(atMost ? "≤ " : "")\(eta())")
    }

    private func finishPlainLine() {
        guard !interactive, !current.isEmpty else { return }
        let answered = conversationTurns.filter { $0.status == .answered }
        let median = Format.duration(Distribution(answered.compactMap { $0.metrics?.timeToFirstToken })?.median)
        let failed = conversationTurns.count - answered.count
        let outcome = "\(answered.count) answered" + (failed > 0 ? ", \(failed) failed" : "")
        write("\(current): \(outcome) · TTFT \(median) · \(finishedTurns)/\(atMost ? "≤" : "")\(totalTurns) turns · ETA \(atMost ? "≤ " : "")\(eta())\n")
        current = ""
    }

    private func eta() -> String {
        guard finishedTurns > 0 else { return "–" }
        let elapsed = (ContinuousClock.now - clock).seconds
        let remaining = Int((elapsed / Double(finishedTurns) * Double(totalTurns - finishedTurns)).rounded())
        return String(format: "%d:%02d", remaining / 60, remaining % 60)
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// Turns SIGINT and SIGTERM into an orderly stop. The first lets the turn in progress finish if
/// it does within `grace` seconds — else cancels it (a stalled served turn, a long prefill) —
/// writes what was measured and ends the run as incomplete (exit 3): a CI cancel (SIGTERM, then
/// SIGKILL some seconds later) finds the results written. The second cancels the turn in progress
/// at once and still writes what was measured (exit 130). A third ends the process at once (exit
/// 130; the journal keeps every finished turn for `recover`). When the trap is released, both
/// signals get back the handling they had.
final class InterruptTrap {
    private let sources: [any DispatchSourceSignal]
    private let previous: [(signal: Int32, handler: __sighandler_t?)]

    /// Seconds the first signal leaves the turn in progress to finish.
    static let grace = 1.0

    /// `cancel` is called by the second signal; `expire` when the first signal's grace runs out.
    init(stop: StopRequest, grace: Double = InterruptTrap.grace, expire: @escaping @Sendable () -> Void = {}, cancel: @escaping @Sendable () -> Void) {
        let count = SignalCount()
        var previous: [(Int32, __sighandler_t?)] = []
        sources = [SIGINT, SIGTERM].map { number in
            previous.append((number, signal(number, SIG_IGN)))
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                // Signals arriving together come as one event: `data` says how many there were.
                let (before, after) = count.add(Int(source.data))
                if before < 1 && after >= 1 {
                    stop.request()
                    FileHandle.standardError.write(Data("\nchateval: interrupted — finishing the current turn (at most \(Int(grace)) s), then writing the results (again: stop the turn now)\n".utf8))
                    DispatchQueue.global().asyncAfter(deadline: .now() + grace) { expire() }
                }
                if before < 2 && after >= 2 {
                    cancel()
                    FileHandle.standardError.write(Data("\nchateval: stopping the current turn now, then writing the results (again: quit at once)\n".utf8))
                }
                if after >= 3 {
                    FileHandle.standardError.write(Data("\nchateval: stopped at once; finished turns are in the journal (chateval recover turns it into a result)\n".utf8))
                    _exit(130)
                }
            }
            source.resume()
            return source
        }
        self.previous = previous
    }

    deinit {
        sources.forEach { $0.cancel() }
        for (number, handler) in previous { signal(number, handler) }
    }
}

private final class SignalCount: Sendable {
    private let value = Atomic<Int>(0)
    /// Adds `count` signals; returns the totals before and after.
    func add(_ count: Int) -> (before: Int, after: Int) {
        let after = value.add(count, ordering: .relaxed).newValue
        return (after - count, after)
    }
}
