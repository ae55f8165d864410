import ChatEvalCore
import ChatEvalReport
import Foundation
import Testing

@testable import ChatEvalCompare

/// A bisection as people read it: the culprit with its change and interval, an undecided range
/// named (never a guess), every probe, the commits skipped and why, and how sure.
@Suite struct BisectReportTests {
    static func outcome() -> BisectOutcome {
        let states = [
            BisectState(commit: "a", shortId: "aaaaaaa", subject: "1: the suite"),
            BisectState(
                commit: "b", shortId: "bbbbbbb", subject: "5: expect Lyon",
                folded: [SkippedCommit(shortId: "ccccccc", subject: "6: notes", reason: "changes no input (only NOTES.md)")]),
            BisectState(commit: "d", shortId: "ddddddd", subject: "11: a longer system prompt"),
        ]
        var outcome = BisectOutcome(states: states, skipped: states[1].folded)
        outcome.budget = BisectBudget(errorRate: 0.05, testedSignals: 1, intervals: 2, culpritsPerSignal: 2)
        let ttft = BisectSignal.metric(suite: "facts", metric: .timeToFirstToken)
        let ends = SignalReading(signal: ttft, side: .changed, change: 0.104, lower: 0.071, upper: 0.139, detail: "regression")
        outcome.endpoints = BisectProbeLog(
            probe: BisectProbe(base: 0, head: 2, kind: .endpoints(errorRate: 0.025)),
            result: BisectProbeResult(readings: [ends], repetitions: 3, seconds: 21))
        let confirmed = SignalReading(signal: ttft, side: .changed, change: 0.098, lower: 0.064, upper: 0.133, detail: "regression")
        outcome.probes = [
            BisectProbeLog(
                probe: BisectProbe(base: 1, head: 2, kind: .paired(signal: ttft, threshold: 0.05, errorRate: 0.004)),
                result: BisectProbeResult(readings: [confirmed], repetitions: 4, seconds: 95, resumed: true))
        ]
        var finding = SignalFinding(signal: ttft, endpoints: ends)
        finding.culprits = [BisectCulprit(state: 2, comparedWith: 1, reading: confirmed)]
        finding.notes = ["no further step in aaaaaaa..bbbbbbb (unchanged)"]
        let check = BisectSignal.passRate(place: .init(suite: "facts", conversation: "capital", turn: 1, position: 1, check: "contains"))
        var undecided = SignalFinding(signal: check, endpoints: SignalReading(signal: check, side: .changed, detail: "passed 9/10 → 2/10"))
        undecided.undecided = [
            UndecidedRange(
                after: 0, through: 2, probed: 1, reading: SignalReading(signal: check, side: .undecided, detail: "passed 3/4 → 2/4"))
        ]
        outcome.findings = [finding, undecided]
        return outcome
    }

    @Test func theTerminalReportNamesCulpritRangeProbesSkipsAndConfidence() {
        let text = BisectReport.render(Self.outcome())
        #expect(text.contains("confidence 95% that every culprit named is right (error rate 5%: the ends 2.5%"))
        #expect(text.contains("culprit   ddddddd \"11: a longer system prompt\" — +9.8% [+6.4%, +13.3%] against bbbbbbb"))
        #expect(text.contains("ends      +10.4% [+7.1%, +13.9%]"))
        #expect(text.contains("UNDECIDED the step lies after aaaaaaa and at or before ddddddd; the probe of bbbbbbb could not decide"))
        #expect(text.contains("ccccccc \"6: notes\": changes no input (only NOTES.md)"))
        #expect(text.contains("facts: ttft (± max(gate, 5%))"))
        #expect(text.contains("resumed"))
        #expect(
            text.contains(
                "took 21.0 s measuring: 1 probe (1 more read back from an earlier run of this bisection), 7 repetitions per side in all")
        )
    }

    @Test func theMarkdownReportHasAProbeTableAndEscapesSubjects() {
        var outcome = Self.outcome()
        outcome.states[2].subject = "11: *bold* | pipe"
        let markdown = BisectReport.markdown(outcome)
        #expect(markdown.hasPrefix("## chateval bisect\n"))
        #expect(markdown.contains("| # | compared | question | reps | time |"))
        #expect(markdown.contains("| 1 | ddddddd vs bbbbbbb | facts: ttft (± max(gate, 5%)) | 4 | resumed |"))
        #expect(!markdown.contains("*bold* | pipe"))
    }
}
