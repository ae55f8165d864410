import ChatEvalCore
import Testing

@testable import ChatEvalGrading

@Suite("Performance checks")
struct PerformanceChecksTests {
    func grade(_ type: String, _ arguments: CheckArgument.Map, _ subject: GradingSubject) throws -> Verdict {
        try makeCheck(type, arguments).evaluate(subject)
    }

    let turn = GradingSubject(answer: "ok", metrics: metrics())

    /// A verdict says whether it reads timings or memory (`Verdict.measured`): a limit on a time,
    /// a rate or memory does, one on a count of work does not, a combinator does when a nested
    /// check does; a check of the answer alone leaves it unset. The exact ledger never compares
    /// such a verdict exactly (issue 41, item 1).
    @Test func aVerdictSaysWhetherItReadsTimings() throws {
        for type in ["ttft", "prefill-tps", "decode-tps", "itl-p50", "itl-p95", "total-time", "tpot"] {
            let limit: CheckArgument.Map = Metric(name: type)?.polarity == .biggerIsBetter ? ["min": 1] : ["max": 1]
            let verdict = try grade(type, limit, turn)
            #expect(verdict.measured == true && verdict.readsMeasurements, "\(type)")
        }
        #expect(try grade("peak-memory", ["max": "1GiB"], turn).measured == true)
        #expect(try grade("generated-tokens", ["max": 200], turn).measured == false)
        #expect(try grade("reuse-ratio", ["min": 0.1], turn).measured == false)
        let text = try grade("contains", ["value": "ok"], turn)
        #expect(text.measured == nil && !text.readsMeasurements)
        let timed: CheckArgument.Map = ["checks": .list([.map(["type": "contains", "value": "ok"]), .map(["type": "ttft", "max": 1])])]
        #expect(try grade("all", timed, turn).measured == true)
        #expect(try grade("any", timed, turn).measured == true)
        #expect(try grade("not", ["check": .map(["type": "decode-tps", "min": 1])], turn).measured == true)
        let answerOnly: CheckArgument.Map = ["checks": .list([.map(["type": "contains", "value": "ok"])])]
        #expect(try grade("all", answerOnly, turn).measured == false)
        #expect(try grade("not-ttft", ["max": 1], turn).measured == true)
        // Records written before the field: the type decides, combinators erring towards "measured".
        #expect(Verdict.typeMayReadMeasurements("ttft") && Verdict.typeMayReadMeasurements("not-peak-memory"))
        #expect(Verdict.typeMayReadMeasurements("all") && Verdict.typeMayReadMeasurements("not"))
        #expect(!Verdict.typeMayReadMeasurements("generated-tokens") && !Verdict.typeMayReadMeasurements("icontains"))
    }

    @Test func limitsOnOneTurn() throws {
        #expect(try grade("ttft", ["max": 0.25], turn).passed)
        #expect(!(try grade("ttft", ["max": 0.1], turn).passed))
        // 500 evaluated prompt tokens in 0.1 s = 5000 t/s; 100 tokens after the first in 2 s = 50 t/s.
        #expect(try grade("prefill-tps", ["min": 4000], turn).passed)
        #expect(!(try grade("prefill-tps", ["min": 6000], turn).passed))
        #expect(try grade("decode-tps", ["min": 50], turn).passed)
        #expect(!(try grade("decode-tps", ["min": 51], turn).passed))
        #expect(try grade("total-time", ["max": 2.3], turn).passed)
        #expect(!(try grade("total-time", ["max": 2], turn).passed))
        #expect(try grade("reuse-ratio", ["min": 0.5], turn).passed)
        #expect(!(try grade("reuse-ratio", ["min": 0.6], turn).passed))
        #expect(try grade("generated-tokens", ["max": 101], turn).passed)
        #expect(!(try grade("generated-tokens", ["max": 100], turn).passed))
        // (2.3 s − 0.2 s) / (101 − 1) tokens = 21 ms per output token after the first.
        #expect(try grade("tpot", ["max": 0.0211], turn).passed)
        #expect(!(try grade("tpot", ["max": 0.0209], turn).passed))
        let oneToken = GradingSubject(answer: "ok", metrics: metrics(decodeTime: 0, totalTime: 0.2, generated: 1))
        #expect(try grade("tpot", ["max": 0], oneToken).passed, "one token has no time per output token: 0, as vLLM counts it")
    }

    @Test func peakMemoryAcceptsHumanSizes() throws {
        #expect(try grade("peak-memory", ["max": 600_000_000], turn).passed)
        #expect(try grade("peak-memory", ["max": "600MB"], turn).passed)
        #expect(!(try grade("peak-memory", ["max": "500 MB"], turn).passed))
        #expect(try grade("peak-memory", ["max": "0.6GB"], turn).passed)
        #expect(!(try grade("peak-memory", ["max": "0.5GiB"], turn).passed))  // 536,870,912 bytes
        #expect(PerformanceChecks.parseByteSize("1.5GiB") == 1.5 * 1_073_741_824)
        #expect(PerformanceChecks.parseByteSize("12 parsecs") == nil)
        let overHTTP = GradingSubject(answer: "ok", metrics: metrics(peak: nil))
        let v = try grade("peak-memory", ["max": "1GB"], overHTTP)
        #expect(!v.passed)
        #expect(v.detail.contains("not measured"))
    }

    @Test func stopReasonAndFailure() throws {
        #expect(try grade("stop-reason", ["value": "eog"], turn).passed)
        #expect(!(try grade("stop-reason", ["value": "max_tokens"], turn).passed))
        let failed = GradingSubject.failed(RuntimeFailure(.contextOverflow, "prompt of 5000 tokens exceeds 4096"))
        #expect(try grade("failure", ["value": "context_overflow"], failed).passed)
        #expect(!(try grade("failure", ["value": "timeout"], failed).passed))
        #expect(try grade("failure", [:], failed).passed)
        #expect(!(try grade("failure", [:], turn).passed))
        #expect(try grade("not-failure", [:], turn).passed)
    }

    @Test func missingMetricsFailWithAClearDetail() throws {
        let failed = GradingSubject.failed(RuntimeFailure(.timeout, "no answer after 60 s"))
        for (type, args) in [("ttft", ["max": 1] as CheckArgument.Map), ("decode-tps", ["min": 1]), ("stop-reason", ["value": "eog"])] {
            let v = try grade(type, args, failed)
            #expect(!v.passed)
            #expect(!v.isError)
            #expect(v.detail.contains("the turn failed (timeout"), "\(v.detail)")
        }
        let oneToken = GradingSubject(answer: "k", metrics: metrics(generated: 1))
        let v = try grade("decode-tps", ["min": 1], oneToken)
        #expect(!v.passed && v.detail.contains("at least 2"))
    }

    @Test func reuseARuntimeDoesNotReportIsUnknownNotAPassOrAPlainFailure() throws {
        var served = metrics()
        served.reusedTokens = nil
        let subject = GradingSubject(answer: "ok", metrics: served, conversationMetrics: [served, served])
        for arguments in [["min": 0] as CheckArgument.Map, ["min": 0, "aggregate": "median"]] {
            let v = try grade("reuse-ratio", arguments, subject)
            #expect(!v.passed)
            #expect(v.isError)
            #expect(v.error?.hasPrefix("unknown:") == true, "\(v.error ?? "")")
        }
        #expect(try grade("prefill-tps", ["min": 1], subject).error?.hasPrefix("unknown:") == true)
        #expect(try grade("not-reuse-ratio", ["min": 0.9], subject).passed == false)  // negation does not turn unknown into a pass
    }

    @Test func conversationAggregates() throws {
        let turns = [metrics(ttft: 0.1), metrics(ttft: 0.2), metrics(ttft: 0.3), metrics(ttft: 2.0)]
        let subject = GradingSubject(answer: "ok", metrics: turns.last, conversationMetrics: turns)
        #expect(!(try grade("ttft", ["max": 1, "aggregate": "max"], subject).passed))
        #expect(try grade("ttft", ["max": 0.25, "aggregate": "median"], subject).passed)  // (0.2 + 0.3) / 2
        #expect(!(try grade("ttft", ["max": 0.24, "aggregate": "median"], subject).passed))
        #expect(try grade("ttft", ["max": 0.1, "aggregate": "min"], subject).passed)
        #expect(try grade("ttft", ["max": 0.65, "aggregate": "mean"], subject).passed)
        // p95 with linear interpolation: 0.3 + 0.85 × (2.0 − 0.3) = 1.745
        #expect(try grade("ttft", ["max": 1.75, "aggregate": "p95"], subject).passed)
        #expect(!(try grade("ttft", ["max": 1.74, "aggregate": "p95"], subject).passed))
        // The gates' statistics too (one vocabulary): p90 = 0.3 + 0.7 × 1.7 = 1.49, p99 = 0.3 + 0.97 × 1.7 = 1.949.
        #expect(try grade("ttft", ["max": 1.5, "aggregate": "p90"], subject).passed)
        #expect(!(try grade("ttft", ["max": 1.48, "aggregate": "p90"], subject).passed))
        #expect(try grade("ttft", ["max": 1.95, "aggregate": "p99"], subject).passed)
        #expect(!(try grade("ttft", ["max": 1.94, "aggregate": "p99"], subject).passed))
        let empty = GradingSubject(answer: "ok")
        #expect(!(try grade("ttft", ["max": 1, "aggregate": "max"], empty).passed))
    }

    @Test func badDefinitions() {
        #expect(definitionError("ttft", ["max": -1])?.problem.contains("negative") == true)
        #expect(definitionError("ttft", ["max": "fast"])?.kind == .wrongType)
        #expect(definitionError("ttft", [:])?.kind == .missingArgument)
        #expect(definitionError("ttft", ["min": 1])?.suggestions.contains("max") == true)
        #expect(definitionError("reuse-ratio", ["min": 1.5])?.kind == .invalidValue)
        #expect(definitionError("peak-memory", ["max": "lots"])?.kind == .invalidValue)
        #expect(definitionError("stop-reason", ["value": "eos"])?.suggestions == ["eog"])
        #expect(definitionError("ttft", ["max": 1, "aggregate": "p42"])?.kind == .invalidValue)
    }

    /// Whatever number a suite gives, building and evaluating never traps.
    @Test func extremeLimitsAreRangeCheckedOrHarmless() throws {
        #expect(definitionError("generated-tokens", ["max": 1e300])?.kind == .wrongType)
        #expect(definitionError("generated-tokens", ["max": 2.5])?.kind == .wrongType)
        #expect(definitionError("generated-tokens", ["max": -1])?.kind == .invalidValue)
        let huge = try makeCheck("generated-tokens", ["max": .integer(Int.max)]).evaluate(GradingSubject(answer: "a", metrics: metrics()))
        #expect(huge.passed)
        #expect(huge.detail.contains("measured 101 tokens"))
        #expect(try makeCheck("ttft", ["max": 1e300]).evaluate(GradingSubject(answer: "a", metrics: metrics())).passed)
        // 10^308 TB is not a finite number of bytes.
        #expect(definitionError("peak-memory", ["max": .string("1" + String(repeating: "0", count: 308) + "TB")])?.kind == .invalidValue)
    }
}
