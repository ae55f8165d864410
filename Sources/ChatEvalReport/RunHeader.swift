import ChatEvalCore
import ChatEvalRuntime

/// The lines that open a run: what runs, on what, how.
public enum RunHeader {
    public static func render(_ identity: RuntimeIdentity, cacheMode: CacheMode) -> String {
        var lines = ["\(identity.engine) \(identity.build)"]
        lines.append("model     \(identity.model.path) — \(identity.model.description), \(Format.bytes(identity.model.fileBytes))")
        lines.append("template  \(identity.chatTemplate) (\(identity.chatTemplateSource))")
        lines.append("context   \(identity.contextSize) tokens, KV cache \(Format.bytes(identity.kvCacheBytes)), batch \(identity.batchSize), \(identity.threads) threads, cache mode \(cacheMode.rawValue)")
        lines.append("load      \(Format.duration(identity.loadSeconds)) (+ warm-up \(Format.duration(identity.warmupSeconds))), not counted in any turn")
        return lines.joined(separator: "\n")
    }
}

extension RunHeader {
    /// "03797f5 on main (dirty: 2 modified, 1 untracked) — Subject line"
    public static func describe(_ snapshot: GitSnapshot?) -> String {
        guard let snapshot else { return "none (not a git repository)" }
        guard let short = snapshot.shortCommit else { return "no commits yet on \(snapshot.branch ?? "HEAD")" }
        let place = snapshot.branch.map { "on \($0)" } ?? "detached"
        let state = snapshot.isDirty ? " (dirty: \(snapshot.modifiedCount) modified, \(snapshot.untrackedCount) untracked)" : ""
        return "\(short) \(place)\(state)" + (snapshot.subject.map { " — \($0)" } ?? "")
    }
}

/// One line per turn: the user message and the answer (or what went wrong).
public enum AnswerLines {
    public static func render(_ turn: TurnResult, full: Bool, indent: String) -> String {
        let number = "\(indent)\(turn.index + 1)."
        let user = "\(number) user:   \(Format.excerpt(turn.user))"
        var text: String
        switch turn.status {
        case .answered:
            let answer = turn.answer ?? ""
            text = user + "\n\(indent)   model:  " + (full ? answer : Format.excerpt(answer))
        case .failed:
            text = user + "\n\(indent)   FAILED: \(turn.failure?.description ?? "unknown failure")"
        case .skipped:
            text = user + "\n\(indent)   skipped: \(turn.skipReason ?? "")"
        }
        for verdict in turn.checks ?? [] {
            text += "\n" + VerdictLine.render(verdict, indent: indent + "   ")
        }
        return text
    }
}

/// `✓ icontains: found "Paris" …` — one line per check verdict.
public enum VerdictLine {
    public static func render(_ verdict: Verdict, indent: String) -> String {
        let mark = verdict.isError ? "!" : (verdict.passed ? "✓" : "✗")
        let error = verdict.error.map { " [error: \($0)]" } ?? ""
        return "\(indent)\(mark) \(verdict.check): \(Format.excerpt(verdict.detail, limit: 140))\(error)"
    }
}

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
            lines.append("\(indent)gate \(gate.gate) \(gate.expected): \(gate.found) — \(gate.passed ? "PASS" : "FAIL")")
        }
        return lines.joined(separator: "\n")
    }
}

/// Medians and 95th percentiles of the key metrics over a suite's answered turns.
public enum SuiteSummary {
    public static let metrics: [Metric] = [.timeToFirstToken, .prefillTokensPerSecond, .decodeTokensPerSecond, .reuseRatio, .peakResidentMemory]

    public static func render(_ turns: [TurnMetrics], indent: String) -> String {
        var table = TextTable([.init("metric", .left), .init("median"), .init("p95"), .init("turns")])
        for metric in metrics {
            let values = turns.compactMap { metric.value(of: $0) }
            let distribution = Distribution(values)
            table.add([metric.label, Format.value(distribution?.median, of: metric), Format.value(distribution?.p95, of: metric), String(values.count)])
        }
        return table.render(indent: indent)
    }
}
