import ChatEvalCore
import ChatEvalReport
import ChatEvalRunner
import ChatEvalRuntime
import Foundation

/// Shows a run's progress on stderr: a redrawn bar with counts and ETA on a terminal; in CI (no
/// terminal, or `CI` set) one plain line per conversation, which logs read well.
actor RunProgress: RunObserver {
    private let totalTurns: Int
    private let interactive: Bool
    private let clock = ContinuousClock.now
    private var finishedTurns = 0
    private var current = ""
    private var conversationTurns: [ReplayedTurn] = []

    init(totalTurns: Int) {
        self.totalTurns = totalTurns
        let ci = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty && $0 != "false" && $0 != "0" } ?? false
        interactive = isatty(STDERR_FILENO) == 1 && !ci
    }

    func conversationStarted(_ replay: ScheduledReplay, index: Int, of total: Int) {
        finishPlainLine()
        let label = replay.warmup ? "warm-up" : "rep \(replay.repetition)"
        current = "[\(index)/\(total)] " + (replay.arm.map { "\($0) " } ?? "") + "\(Terminal.safe(replay.suite))/\(Terminal.safe(replay.conversation)) \(label)"
        conversationTurns = []
        draw()
    }

    func turnFinished(_ turn: ReplayedTurn, conversation: String) {
        finishedTurns += 1
        conversationTurns.append(turn)
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
        write("\r\u{1B}[2K\(bar) \(finishedTurns)/\(totalTurns) turns · \(current) · ETA \(eta())")
    }

    private func finishPlainLine() {
        guard !interactive, !current.isEmpty else { return }
        let answered = conversationTurns.filter { $0.status == .answered }
        let median = Format.duration(Distribution(answered.compactMap { $0.metrics?.timeToFirstToken })?.median)
        let failed = conversationTurns.count - answered.count
        write("\(current): \(answered.count) turns answered\(failed > 0 ? ", \(failed) failed or skipped" : ""), TTFT median \(median), \(finishedTurns)/\(totalTurns) turns, ETA \(eta())\n")
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

/// Turns SIGINT and SIGTERM into a stop request: the turn in progress finishes, what was measured
/// is written, and the run ends as incomplete. A second signal ends the process at once (the
/// journal keeps every finished turn).
final class InterruptTrap {
    private let sources: [any DispatchSourceSignal]

    init(stop: StopRequest) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if stop.isRequested {
                    FileHandle.standardError.write(Data("\nchateval: stopped at once; finished turns are in the journal\n".utf8))
                    _exit(130)
                }
                stop.request()
                FileHandle.standardError.write(Data("\nchateval: interrupted — finishing the current turn, then writing the results\n".utf8))
            }
            source.resume()
            return source
        }
    }

    deinit { sources.forEach { $0.cancel() } }
}
