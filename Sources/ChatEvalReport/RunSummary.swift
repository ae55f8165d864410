import ChatEvalCore
import ChatEvalStore

/// The figures a run's report leads with, computed from its records (one per model of a
/// side-by-side run): per suite, checks passed, time to first token, decode speed and how much
/// they varied between repetitions; the gates that failed; every check that failed, grouped
/// over repetitions; every runtime failure no check expected.
public struct RunSummary: Sendable {
    public struct SuiteLine: Sendable {
        public var suite: String
        /// The record's label in a side-by-side run; nil for an ordinary run.
        public var label: String?
        public var checksPassed: Int
        public var checksTotal: Int
        /// Of the checks passed, those that passed only because the answer repeated the prompt (`Verdict.echo`).
        public var checksEchoed: Int
        /// Weighted pass rate (what `min_pass_rate` gates).
        public var passRate: Double?
        public var timeToFirstToken: Distribution?
        public var decodeTokensPerSecond: Distribution?
        public var repetitions: Int
        /// (max − min) ÷ median of the repetitions' median TTFTs; nil with fewer than two.
        public var timeToFirstTokenSpread: Double?
        public var unexpectedFailures: Int
        public var failedGates: [GateOutcome]
        public var gateCount: Int
        /// The suite declared no gates: it is held to `SuiteGates.implied` (every check passes).
        public var gatesImplied: Bool

        /// The line of one suite's measured replays (gates as evaluated so far).
        public init(_ suite: SuiteRecord, label: String?) {
            let measured = suite.conversations.filter(\.isMeasured)
            let verdicts = measured.flatMap(\.verdicts)
            let turns = suite.measuredTurns
            let perRepetition = Dictionary(grouping: measured, by: \.repetition).values.compactMap { replays in
                Distribution(replays.flatMap { $0.turns.compactMap { $0.metrics?.timeToFirstToken } })?.median
            }
            if perRepetition.count >= 2, let distribution = Distribution(perRepetition), distribution.median > 0 {
                timeToFirstTokenSpread = (distribution.max - distribution.min) / distribution.median
            }
            self.suite = suite.name
            self.label = label
            checksPassed = verdicts.filter(\.passed).count
            checksTotal = verdicts.count
            checksEchoed = verdicts.filter { $0.passed && $0.echo != nil }.count
            passRate = Verdict.passRate(verdicts)
            timeToFirstToken = Distribution(turns.map(\.timeToFirstToken))
            decodeTokensPerSecond = Distribution(turns.compactMap(\.decodeTokensPerSecond))
            repetitions = Set(measured.map(\.repetition)).count
            unexpectedFailures = measured.flatMap(\.turns).filter(\.failedUnexpectedly).count
            failedGates = suite.gates.filter { !$0.passed }
            gateCount = suite.gates.count
            gatesImplied = !suite.gates.isEmpty && suite.gates.allSatisfy { !$0.isDeclared }
        }

        /// One line as a suite finishes: checks, TTFT, decode speed.
        public var progressLine: String {
            "\(label.map { "[\($0)] " } ?? "")\(suite): \(checksPassed)/\(checksTotal) checks passed"
                + (checksEchoed > 0 ? " (\(checksEchoed) only on an echo of the prompt)" : "") + ", "
                + "TTFT p50 \(Format.duration(timeToFirstToken?.p50)) "
                + "p95 \(Format.duration(timeToFirstToken?.p95)), decode \(Format.rate(decodeTokensPerSecond?.p50)) t/s"
                + (unexpectedFailures > 0 ? ", \(unexpectedFailures) runtime failures" : "")
        }
    }

    /// One check that failed in at least one repetition, with the first failing repetition's
    /// verdict and turn.
    public struct FailedCheck: Sendable {
        public var suite: String
        public var label: String?
        public var conversation: String
        /// The turn (0-based), or nil for a conversation-level check.
        public var turn: TurnRecord?
        public var verdict: Verdict
        public var repetition: Int
        public var failedIn: Int
        public var repetitions: Int
        /// Passed in some repetitions and failed in others.
        public var isFlaky: Bool { failedIn < repetitions }
    }

    /// A turn that failed at runtime without a `failure` check expecting it.
    public struct RuntimeFailureLine: Sendable {
        public var suite: String
        public var label: String?
        public var conversation: String
        public var turn: TurnRecord
        public var repetition: Int
    }

    public var lines: [SuiteLine]
    public var failedChecks: [FailedCheck]
    /// Checks that passed only because the answer repeated what the model was sent
    /// (`Verdict.echo`), grouped as `failedChecks` are (`failedIn`: the repetitions where they did).
    public var echoedChecks: [FailedCheck]
    public var runtimeFailures: [RuntimeFailureLine]
    public var incomplete: Bool

    public var gateCount: Int { lines.reduce(0) { $0 + $1.gateCount } }
    public var failedGateCount: Int { lines.reduce(0) { $0 + $1.failedGates.count } }
    /// Every suite declared no gates: the checks alone decide.
    public var checksDecide: Bool { lines.allSatisfy(\.gatesImplied) }

    /// The verdict in one sentence for the Markdown and HTML reports; it never says gates passed
    /// where a suite declared none.
    public var headline: String {
        if incomplete { return "Incomplete: the run did not finish; the tables show what was measured." }
        let failedChecks = checksTotal - checksPassed
        if checksDecide {
            return failedGateCount == 0
                ? "Every check passed (no gates declared, so every check had to)." + echoedSentence
                : "\(failedChecks) of \(checksTotal) checks failed"
                    + "\(runtimeFailures.isEmpty ? "" : ", \(runtimeFailures.count) turns failed unexpectedly"); "
                    + "no gates are declared, so every check had to pass."
        }
        let implied = lines.filter(\.gatesImplied).count
        let without = implied > 0 ? " (\(implied) suite\(implied == 1 ? "" : "s") without gates: every check had to pass)" : ""
        return
            (failedGateCount == 0
            ? "\(gateCount == 1 ? "The gate" : "All \(gateCount) gates") passed\(without)."
            : "\(failedGateCount) of \(gateCount) gate\(gateCount == 1 ? "" : "s") failed\(without).") + echoedSentence
    }

    /// " 2 checks passed only because the answer repeats the prompt.", or nothing.
    private var echoedSentence: String {
        echoedChecks.isEmpty
            ? ""
            : " \(echoedChecks.count) check\(echoedChecks.count == 1 ? "" : "s") passed only because the answer repeats the prompt."
    }
    public var checksPassed: Int { lines.reduce(0) { $0 + $1.checksPassed } }
    public var checksTotal: Int { lines.reduce(0) { $0 + $1.checksTotal } }
    public var passed: Bool { failedGateCount == 0 && !incomplete }

    /// `labels[i]` names `records[i]` in a side-by-side run (nil entries for an ordinary run).
    public init(_ records: [RunRecord], labels: [String?]) {
        var lines: [SuiteLine] = []
        var failedChecks: [FailedCheck] = []
        var echoedChecks: [FailedCheck] = []
        var runtimeFailures: [RuntimeFailureLine] = []
        for (record, label) in zip(records, labels) {
            for suite in record.suites {
                let measured = suite.conversations.filter(\.isMeasured)
                runtimeFailures += measured.flatMap { replay in
                    replay.turns.filter(\.failedUnexpectedly).map {
                        RuntimeFailureLine(
                            suite: suite.name, label: label, conversation: replay.id, turn: $0, repetition: replay.repetition)
                    }
                }
                lines.append(SuiteLine(suite, label: label))
                failedChecks += Self.failedChecks(suite.name, label: label, measured)
                echoedChecks += Self.failedChecks(suite.name, label: label, measured) { $0.passed && $0.echo != nil }
            }
        }
        self.lines = lines
        self.failedChecks = failedChecks
        self.echoedChecks = echoedChecks
        self.runtimeFailures = runtimeFailures
        self.incomplete = records.contains { $0.status != .complete }
    }

    /// Failed checks (or those `counted` picks) grouped by (conversation, turn, check) over the
    /// repetitions, in suite order.
    private static func failedChecks(
        _ suite: String, label: String?, _ replays: [ConversationRecord], counted: (Verdict) -> Bool = { !$0.passed }
    ) -> [FailedCheck] {
        struct Key: Hashable {
            var conversation: String
            var turn: Int
            var check: Int
        }
        var order: [Key] = []
        var groups: [Key: FailedCheck] = [:]
        var totals: [Key: Int] = [:]
        for replay in replays {
            let located =
                replay.turns.flatMap { turn in (turn.checks ?? []).enumerated().map { (turn as TurnRecord?, $0.offset, $0.element) } }
                + replay.checks.enumerated().map { (nil as TurnRecord?, $0.offset, $0.element) }
            for (turn, index, verdict) in located {
                let key = Key(conversation: replay.id, turn: turn?.index ?? -1, check: index)
                totals[key, default: 0] += 1
                guard counted(verdict) else { continue }
                if var existing = groups[key] {
                    existing.failedIn += 1
                    groups[key] = existing
                } else {
                    order.append(key)
                    groups[key] = FailedCheck(
                        suite: suite, label: label, conversation: replay.id, turn: turn, verdict: verdict,
                        repetition: replay.repetition, failedIn: 1, repetitions: 0)
                }
            }
        }
        return order.compactMap { key in
            guard var check = groups[key] else { return nil }
            check.repetitions = totals[key] ?? check.failedIn
            return check
        }
    }
}
