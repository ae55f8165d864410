/// The outcome of one suite gate: plain data; the command line decides the exit code.
public struct GateOutcome: Codable, Sendable, Hashable {
    /// What was gated, e.g. "min_pass_rate" or "ttft p95".
    public var gate: String
    public var passed: Bool
    /// The bound, e.g. "≥ 0.6".
    public var expected: String
    /// What the run measured, e.g. "0.45 (9 of 20 checks)".
    public var found: String
    /// True for the gates a suite gets when it declares none: every check passes and no turn
    /// fails unexpectedly (promptfoo's rule: a failed assertion fails the run). Absent otherwise.
    public var implied: Bool?

    public init(gate: String, passed: Bool, expected: String, found: String, implied: Bool = false) {
        self.gate = gate
        self.passed = passed
        self.expected = expected
        self.found = found
        self.implied = implied ? true : nil
    }

    /// Whether the suite declared this gate (false for the implied ones).
    public var isDeclared: Bool { implied != true }

    /// The gate and its bound as reports name it, e.g. "ttft p95 ≤ 2" or
    /// "min_pass_rate ≥ 1 (implied: no gates declared)".
    public var described: String { "\(gate) \(expected)" + (isDeclared ? "" : " (implied: no gates declared)") }
}
