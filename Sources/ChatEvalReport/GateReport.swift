import ChatEvalCore
import ChatEvalStore

/// Checks passed and gate outcomes of a suite.
public enum GateReport {
    public static func render(verdicts: [Verdict], gates: [GateOutcome], indent: String) -> String {
        var lines: [String] = []
        if !verdicts.isEmpty {
            let passed = verdicts.filter(\.passed).count
            let rate = Verdict.passRate(verdicts).map { String(format: " (weighted pass rate %.2f)", $0) } ?? ""
            lines.append("\(indent)checks: \(passed) of \(verdicts.count) passed\(rate)")
        }
        for gate in gates {
            lines.append("\(indent)gate \(gate.described): \(gate.found) — \(gate.passed ? "PASS" : "FAIL")")
        }
        return lines.joined(separator: "\n")
    }
}
