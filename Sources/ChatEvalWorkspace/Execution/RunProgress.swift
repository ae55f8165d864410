import ChatEvalCore
import ChatEvalLlama
import ChatEvalReport
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import Foundation
import Synchronization

/// Shows a run's progress on stderr: a redrawn bar with counts and ETA on a terminal; in CI (no
/// terminal, or `CI` set) one plain line per conversation, which logs read well.
package actor RunProgress: RunObserver {
    private let totalTurns: Int
    private let repetitions: Int
    private let interactive: Bool
    private let clock = ContinuousClock.now
    private var finishedTurns = 0
    private var current = ""
    private var conversationTurns: [ReplayedTurn] = []
    /// The current replay's failed turns that a `failure` check expected (known once it is graded).
    private var expectedFailures = 0

    private let suiteLinesToStandardOutput: Bool

    /// `suiteLinesToStandardOutput`: false when another report format holds standard output
    /// (the suites' lines then go to standard error with the rest of the progress).
    /// True when `totalTurns` is the most the run may take (a paired run adding rounds until
    /// decided): the counts and the ETA say "at most".
    private let atMost: Bool

    /// Whether a first look is printed after repetition 1 (plain runs; a paired run has its looks).
    private let firstLook: Bool

    package init(totalTurns: Int, repetitions: Int, suiteLinesToStandardOutput: Bool = true, atMost: Bool = false, firstLook: Bool = true) {
        self.atMost = atMost
        self.firstLook = firstLook && !atMost && repetitions > 1
        self.totalTurns = totalTurns
        self.repetitions = repetitions
        self.suiteLinesToStandardOutput = suiteLinesToStandardOutput
        let ci = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty && $0 != "false" && $0 != "0" } ?? false
        interactive = isatty(STDERR_FILENO) == 1 && !ci
    }

    package func conversationStarted(_ replay: ScheduledReplay, index: Int, of total: Int) {
        finishPlainLine()
        let label = replay.warmup ? " warm-up" : repetitions > 1 ? " rep \(replay.repetition)" : ""
        current =
            "[\(index)/\(total)] " + (replay.arm.map { "\($0) " } ?? "")
            + "\(Terminal.safe(replay.suite))/\(Terminal.safe(replay.conversation))\(label)"
        conversationTurns = []
        expectedFailures = 0
        self.replay = replay
        nameTurnForEngineCrash()
        draw()
    }

    /// True once a turn whose server figures contradict each other was named.
    private var contradictionSaid = false

    /// The replay in progress, for the message an engine crash prints.
    private var replay: ScheduledReplay?

    /// Tells the engine's crash handler which turn comes next (the one a crash would cut short).
    private func nameTurnForEngineCrash() {
        guard let replay else { return }
        let repetition = replay.warmup ? "warm-up" : "repetition \(replay.repetition)"
        EngineCrashReport.setActivity(
            (replay.arm.map { "\($0) side, " } ?? "") + "suite \(replay.suite), conversation \(replay.conversation), "
                + "turn \(conversationTurns.count + 1) (\(repetition))")
    }

    package func conversationGraded(_ conversation: ConversationRecord) {
        expectedFailures = conversation.turns.filter { $0.status == .failed && !$0.failedUnexpectedly }.count
    }

    package func turnFinished(_ turn: ReplayedTurn, conversation: String) {
        finishedTurns += 1
        conversationTurns.append(turn)
        if !contradictionSaid, let contradiction = turn.metrics?.server?.contradictions?.first {
            contradictionSaid = true
            if interactive { write("\r\u{1B}[2K") }
            warn(
                "\(Terminal.safe(conversation)) turn \(turn.index + 1): \(contradiction); every turn whose figures contradict "
                    + "each other is recorded so, saying how (server.contradictions in the result), and not named here again")
        }
        nameTurnForEngineCrash()
        draw()
    }

    /// Prints the suite's line on standard output as soon as its last replay is done (the report
    /// at the end repeats it, with the gates).
    package func suiteFinished(_ suite: SuiteRecord, arm: String?) {
        finishPlainLine()
        if interactive { write("\r\u{1B}[2K") }
        let line = "done      " + (arm.map { "\($0) " } ?? "") + RunSummary.SuiteLine(suite, label: nil).progressLine
        if suiteLinesToStandardOutput { say(line) } else { complain(line) }
        draw()
    }

    /// After the first of several repetitions, each suite's figures so far (a first look: a
    /// plain run of 10 repetitions otherwise shows none until its end).
    package func repetitionFinished(_ repetition: Int, of total: Int, records: [RunRecord]) {
        guard repetition == 1, firstLook else { return }
        finishPlainLine()
        if interactive { write("\r\u{1B}[2K") }
        var lines = ["first look, after repetition 1 of \(total) (the report comes when all are done; Ctrl-C keeps what is measured):"]
        for record in records {
            for suite in record.suites {
                var first = suite
                first.conversations = suite.conversations.filter { $0.isMeasured && $0.repetition == 1 }
                guard !first.conversations.isEmpty else { continue }
                lines.append("          " + RunSummary.SuiteLine(first, label: record.group?.label).progressLine)
            }
        }
        let text = lines.joined(separator: "\n")
        if suiteLinesToStandardOutput { say(text) } else { complain(text) }
        draw()
    }

    /// A paired run's look after a round: what it decided, what is still open.
    package func lookTaken(_ summary: String) {
        finishPlainLine()
        if interactive { write("\r\u{1B}[2K") }
        let line = "look      " + Terminal.safe(summary)
        if suiteLinesToStandardOutput { say(line) } else { complain(line) }
        draw()
    }

    /// Ends the progress display (clears the bar, or prints the last plain line).
    package func finish() {
        finishPlainLine()
        if interactive { write("\r\u{1B}[2K") }
    }

    private func draw() {
        guard interactive else { return }
        let width = 24
        let done = totalTurns > 0 ? min(finishedTurns * width / totalTurns, width) : width
        let bar = String(repeating: "█", count: done) + String(repeating: "░", count: width - done)
        write("\r\u{1B}[2K\(bar) \(Format.turnsDone(finishedTurns, of: totalTurns, atMost: atMost)) · \(current) · \(eta())")
    }

    private func finishPlainLine() {
        guard !interactive, !current.isEmpty else { return }
        let answered = conversationTurns.filter { $0.status == .answered }
        let median = Format.duration(Distribution(answered.compactMap { $0.metrics?.timeToFirstToken })?.median)
        let unexpected = conversationTurns.count - answered.count - expectedFailures
        let outcome =
            "\(answered.count) answered" + (unexpected > 0 ? ", \(unexpected) failed" : "")
            + (expectedFailures > 0 ? ", \(expectedFailures) failed as expected" : "")
        write("\(current): \(outcome) · TTFT \(median) · \(Format.turnsDone(finishedTurns, of: totalTurns, atMost: atMost)) · \(eta())\n")
        current = ""
    }

    private func eta() -> String {
        Format.eta(finishedTurns, of: totalTurns, atMost: atMost, elapsed: (ContinuousClock.now - clock).seconds)
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
