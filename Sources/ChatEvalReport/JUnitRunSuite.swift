import ChatEvalCore
import ChatEvalStore
import Foundation

/// One suite of one run as a JUnit test suite whose case names stay the same from pipeline to
/// pipeline, so that CI test history and flaky-test tracking can follow them.
///
/// - A case per check of each conversation over all its measured repetitions, named by place
///   only (`turn 2 check 1: contains`, `conversation check 1: length`, class
///   `chateval.SUITE.CONVERSATION`); the repetition counts go in the message, never the name.
/// - A `turn N: answered` case where some repetition of the turn did not answer.
/// - The failures follow the suite's gates, as the exit code does: a suite that declares gates
///   fails only on its failed gates (a check failing within them is listed in the suite's
///   `system-out`, the case passes); a suite without gates is held to every check, so each
///   failing check is a failure and each turn that failed unexpectedly an error.
struct JUnitRunSuite {
    /// Most findings listed in a suite's `system-out`, which GitLab's 30 MB per file also bounds.
    static let listedFindings = 200

    var suite: SuiteRecord
    var record: RunRecord
    var multipleModels: Bool

    /// The test suite.
    var rendered: JUnitReport.Suite {
        let gatesDecide = suite.gates.contains(where: \.isDeclared)
        var cases: [JUnitReport.Case] = []
        var withinGates: [String] = []
        for (id, replays) in measuredReplays {
            let classname = "chateval.\(suite.name).\(id)"
            for tally in tallies(of: replays) {
                var outcome = tally.outcome
                if gatesDecide, let message = outcome.problemMessage {
                    withinGates.append("\(id) · \(tally.name): \(Markup.cut(message, 300))")
                    outcome = .passed
                }
                cases.append(JUnitReport.Case(classname: classname, name: tally.name, time: tally.time, outcome: outcome))
            }
        }
        for gate in suite.gates where gate.isDeclared {
            cases.append(
                JUnitReport.Case(
                    classname: "chateval.\(suite.name).gates", name: gate.gate, time: 0,
                    outcome: gate.passed ? .passed : .failure(type: "gate", message: "\(gate.described), found \(gate.found)", body: "")))
        }
        var output = "status \(record.status.rawValue)"
        if !gatesDecide {
            output += "\nno gates declared, so every check had to pass and no turn could fail"
        } else if !withinGates.isEmpty {
            output +=
                "\nfailed within the gates (the gates decide this suite):\n"
                + withinGates.prefix(Self.listedFindings).joined(separator: "\n")
            if withinGates.count > Self.listedFindings {
                output += "\n\(withinGates.count - Self.listedFindings) more; the result file holds them all"
            }
        }
        return JUnitReport.Suite(
            name: multipleModels ? "\(suite.name) (\(record.modelLabel))" : suite.name,
            hostname: JUnitReport.machineDescription(record.machine), timestamp: record.startedAt,
            properties: [
                ("model", URL(fileURLWithPath: record.runtime.model.path).lastPathComponent),
                ("model_sha256", record.modelSha256 ?? "unknown"), ("commit", record.git?.commit ?? "none"),
                ("run_id", record.runId), ("engine", "\(record.runtime.engine) \(record.runtime.build)"),
                ("host", record.machine.hostname), ("repetitions", String(record.settings.repetitions)),
            ],
            cases: cases, output: output)
    }

    /// The measured replays of each conversation, in the order the conversations first ran.
    private var measuredReplays: [(String, [ConversationRecord])] {
        var order: [String] = []
        var replays: [String: [ConversationRecord]] = [:]
        for conversation in suite.conversations where conversation.isMeasured {
            if replays[conversation.id] == nil { order.append(conversation.id) }
            replays[conversation.id, default: []].append(conversation)
        }
        return order.map { ($0, replays[$0] ?? []) }
    }

    /// Every case of one conversation: per turn its answered case (when needed) and its checks,
    /// then the conversation's own checks.
    private func tallies(of replays: [ConversationRecord]) -> [Tally] {
        let turnCount = replays.map(\.turns.count).max() ?? 0
        var result: [Tally] = []
        for index in 0..<turnCount {
            let turns = replays.compactMap { $0.turns.indices.contains(index) ? $0.turns[index] : nil }
            let seconds = turns.compactMap(\.metrics?.totalTime)
            let time = seconds.isEmpty ? 0 : seconds.reduce(0, +) / Double(seconds.count)
            if let answered = answeredTally(turns, name: "turn \(index + 1): answered", time: time) { result.append(answered) }
            let checkCount = turns.map { $0.checks?.count ?? 0 }.max() ?? 0
            for position in 0..<checkCount {
                let graded = turns.compactMap { turn -> (Verdict, String?)? in
                    guard let checks = turn.checks, checks.indices.contains(position) else { return nil }
                    return (checks[position], turn.answer)
                }
                result.append(
                    Tally(
                        name: "turn \(index + 1) check \(position + 1): \(graded.first?.0.check ?? "check")", time: time,
                        verdicts: graded.map(\.0), answers: graded.map(\.1), replays: replays.count))
            }
        }
        let checkCount = replays.map(\.checks.count).max() ?? 0
        for position in 0..<checkCount {
            let verdicts = replays.compactMap { $0.checks.indices.contains(position) ? $0.checks[position] : nil }
            result.append(
                Tally(
                    name: "conversation check \(position + 1): \(verdicts.first?.check ?? "check")", time: 0, verdicts: verdicts,
                    answers: verdicts.map { _ in nil }, replays: replays.count))
        }
        return result
    }

    /// The `answered` case of a turn some repetition did not answer: an error when one failed
    /// without a passing `failure` check, skipped when the rest were not run; nil when every
    /// repetition answered (or failed as expected).
    private func answeredTally(_ turns: [TurnRecord], name: String, time: Double) -> Tally? {
        let unexpected = turns.filter(\.failedUnexpectedly)
        let skipped = turns.filter { $0.status == .skipped }
        if let first = unexpected.first {
            let failure = first.failure
            return Tally(
                name: name, time: time,
                fixed: .error(
                    type: failure?.code.rawValue ?? "failed",
                    message: "failed in \(unexpected.count) of \(turns.count) repetitions: \(failure?.message ?? "the turn failed")",
                    body: "user: \(first.user)"))
        }
        if let first = skipped.first {
            let reason = "not run in \(skipped.count) of \(turns.count) repetitions: \(first.skipReason ?? "not run")"
            return Tally(name: name, time: 0, fixed: .skipped(reason))
        }
        return nil
    }

    /// One case: a check over its repetitions, or a turn's answered case.
    struct Tally {
        var name: String
        var time: Double
        var verdicts: [Verdict] = []
        /// The answer each verdict graded (nil for a conversation check), in the same order.
        var answers: [String?] = []
        var replays = 0
        var fixed: JUnitReport.Case.Outcome?

        init(name: String, time: Double, verdicts: [Verdict], answers: [String?], replays: Int) {
            self.name = name
            self.time = time
            self.verdicts = verdicts
            self.answers = answers
            self.replays = replays
        }

        init(name: String, time: Double, fixed: JUnitReport.Case.Outcome) {
            self.name = name
            self.time = time
            self.fixed = fixed
        }

        /// "passed 4 of 6 repetitions" (with those the check did not run in, when any).
        var summary: String {
            let passed = verdicts.filter(\.passed).count
            let notRun = replays - verdicts.count
            return "passed \(passed) of \(replays) repetitions" + (notRun > 0 ? " (not run in \(notRun): its turn did not answer)" : "")
        }

        /// A failure when some repetition failed the check (an error when every failure was an
        /// evaluation error), with the first failure's detail and answer.
        var outcome: JUnitReport.Case.Outcome {
            if let fixed { return fixed }
            let failing = verdicts.enumerated().filter { !$0.element.passed }
            guard let (offset, first) = failing.first else { return .passed }
            if failing.allSatisfy({ $0.element.isError }), let error = first.error {
                return .error(type: "check error", message: "\(summary): \(error)", body: first.detail)
            }
            let answer = answers.indices.contains(offset) ? answers[offset].map { "answer: \($0)" } ?? "" : ""
            return .failure(type: first.check, message: "\(summary): \(first.detail)", body: answer)
        }
    }
}
