import ChatEvalCore
import ChatEvalGrading
import ChatEvalStore
import ChatEvalSuites

/// Evaluates a suite's gates over its measured (not warm-up) replays.
public enum GateEvaluator {
    /// Every suite's gates over its measured replays, and whether all passed; `suites` are the
    /// definitions of `record.suites`, in the same order.
    public static func evaluate(_ record: inout RunRecord, suites: [Suite]) {
        for (index, suite) in zip(record.suites.indices, suites) {
            let measured = record.suites[index].conversations.filter(\.isMeasured)
            record.suites[index].gates = evaluate(suite.gates, conversations: measured)
        }
        record.gatesPassed = record.suites.allSatisfy { $0.gates.allSatisfy(\.passed) }
    }

    /// The outcomes of `gates`, or of `SuiteGates.implied` (marked implied) when it is empty.
    public static func evaluate(_ gates: SuiteGates, conversations: [ConversationRecord]) -> [GateOutcome] {
        guard !gates.isEmpty else {
            return evaluate(.implied, conversations: conversations).map {
                var outcome = $0
                outcome.implied = true
                return outcome
            }
        }
        var outcomes: [GateOutcome] = []
        let verdicts = conversations.flatMap(\.verdicts)
        if let minimum = gates.minimumPassRate {
            let rate = Verdict.passRate(verdicts)
            let passedCount = verdicts.filter(\.passed).count
            outcomes.append(
                GateOutcome(
                    gate: "min_pass_rate", passed: (rate ?? 1) >= minimum, expected: "≥ \(decimal(minimum))",
                    found: rate.map { "\(decimal($0)) (\(passedCount) of \(verdicts.count) checks)" } ?? "no checks"))
        }
        if let maximum = gates.maximumFailedTurns {
            let unexpected = conversations.flatMap(\.turns).filter(\.failedUnexpectedly).count
            outcomes.append(
                GateOutcome(
                    gate: "max_failed_turns", passed: unexpected <= maximum, expected: "≤ \(maximum)",
                    found: "\(unexpected) unexpected failures"))
        }
        let metrics = conversations.flatMap { $0.turns.compactMap(\.metrics) }
        for gate in gates.metrics {
            let name = "\(gate.metric.rawValue) \(gate.statistic.rawValue)"
            let bound = [gate.minimum.map { "≥ \(decimal($0))" }, gate.maximum.map { "≤ \(decimal($0))" }].compactMap { $0 }.joined(
                separator: " and ")
            guard let distribution = Distribution(metrics.compactMap { gate.metric.value(of: $0) }) else {
                outcomes.append(GateOutcome(gate: name, passed: false, expected: bound, found: "no measurements"))
                continue
            }
            let value = gate.statistic.value(of: distribution)
            let passed = (gate.minimum.map { value >= $0 } ?? true) && (gate.maximum.map { value <= $0 } ?? true)
            outcomes.append(
                GateOutcome(gate: name, passed: passed, expected: bound, found: "\(decimal(value)) over \(distribution.count) turns"))
        }
        return outcomes
    }

    /// At most three decimals, no trailing ".0"; any finite or infinite value (never an `Int(...)`
    /// conversion that a bound of 1e19 would trap).
    private static func decimal(_ value: Double) -> String { DecimalText.rounded(value, places: 3) }
}
