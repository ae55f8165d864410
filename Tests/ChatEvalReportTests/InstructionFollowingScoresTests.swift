import ChatEvalCore
import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

@testable import ChatEvalReport

/// Per-turn accuracy (prompt / instruction, strict / loose), forgetting and the survival curve of
/// the conversations tagged `multi-turn-if`, on hand-built replays whose figures are counted here.
@Suite struct InstructionFollowingScoresTests {
    /// A verdict of instruction `name`: followed strictly, and loosely (`loose` nil: the same).
    static func verdict(_ name: String, _ passed: Bool, loose: Bool? = nil) -> Verdict {
        var verdict = Verdict(check: "all", passed: passed, detail: "")
        verdict.instruction = name
        verdict.loose = loose
        return verdict
    }

    static func metrics(ttft: Double, reused: Int) -> TurnMetrics {
        TurnMetrics(
            promptTokens: 100, reusedTokens: reused, generatedTokens: 10, timeToFirstToken: ttft, prefillTime: 0.01, decodeTime: 0.1,
            totalTime: ttft + 0.1, interTokenLatencies: [], stopReason: .endOfGeneration)
    }

    /// A replay whose turn k holds `turns[k]`'s verdicts (an empty list: a turn without checks).
    static func replay(
        _ id: String, _ turns: [[Verdict]], tags: [String] = ["multi-turn-if"], ttft: Double = 0.25, warmup: Bool = false
    ) -> ConversationRecord {
        ConversationRecord(
            id: id, repetition: warmup ? 0 : 1, warmup: warmup, systemPrompt: nil, options: GenerationOptions(), tags: tags,
            turns: turns.enumerated().map { index, verdicts in
                TurnRecord(
                    ReplayedTurn(
                        index: index, user: "q\(index)", messagesSent: 2 * index + 1, status: .answered, answer: "a",
                        metrics: metrics(ttft: ttft * Double(index + 1), reused: index * 40)),
                    checks: verdicts.isEmpty ? nil : verdicts)
            })
    }

    /// Three replays: one follows everything for 3 turns; one drops "lower" at turn 2 (strictly;
    /// loosely it holds) and recovers at turn 3; one of 2 turns fails turn 1's second instruction.
    static let replays = [
        replay(
            "a",
            [
                [verdict("lower", true)], [verdict("lower", true), verdict("comma", true)],
                [verdict("lower", true), verdict("comma", true)],
            ]),
        replay("b", [[verdict("lower", true)], [verdict("lower", false, loose: true)], [verdict("lower", true)]], ttft: 0.75),
        replay("c", [[verdict("lower", true), verdict("title", false)], [verdict("lower", true)]], ttft: 0.5),
    ]

    @Test func perTurnAccuracyStrictAndLoose() throws {
        let scores = try #require(InstructionFollowingScores(Self.replays))
        #expect(scores.replays == 3)
        #expect(scores.turns.map(\.prompts) == [3, 3, 2])
        #expect(scores.turns.map(\.promptsFollowedStrict) == [2, 2, 2])
        #expect(scores.turns.map(\.promptsFollowedLoose) == [2, 3, 2])
        #expect(scores.turns.map(\.instructions) == [4, 4, 3])
        #expect(scores.turns.map(\.instructionsFollowedStrict) == [3, 3, 3])
        #expect(scores.turns.map(\.instructionsFollowedLoose) == [3, 4, 3])
        #expect(scores.total.promptAccuracyStrict == 0.75)
        let tenOfEleven: Double = 10.0 / 11
        #expect(scores.total.instructionAccuracyLoose == tenOfEleven)
    }

    /// Followed at k − 1 and asked again at k: a's "lower" twice, then "lower" and "comma"; b's
    /// "lower" at turn 2 (dropped) and not at turn 3 (it was not followed at turn 2); c's "lower".
    @Test func forgettingCountsOnlyInstructionsFollowedTheTurnBefore() throws {
        let scores = try #require(InstructionFollowingScores(Self.replays))
        #expect(scores.turns.map(\.carried) == [0, 3, 2])
        #expect(scores.turns.map(\.forgotten) == [0, 1, 0])
        #expect(scores.total.forgettingRate == 0.2)
    }

    /// Kaplan–Meier: c fails at turn 1 (2 of 3 survive), b at turn 2 (1 of 2); at turn 3 only a
    /// is at risk and survives. c's end after turn 2 is not a failure.
    @Test func survivalIsKaplanMeierOverConversationsOfDifferentLengths() throws {
        let scores = try #require(InstructionFollowingScores(Self.replays))
        #expect(scores.turns.map(\.atRisk) == [3, 2, 1])
        #expect(scores.turns.map(\.survived) == [2, 1, 1])
        let third: Double = 1.0 / 3
        #expect(scores.turns.map(\.survival) == [2 * third, third, third])
    }

    @Test func costBesideQuality() throws {
        let scores = try #require(InstructionFollowingScores(Self.replays))
        #expect(scores.turns.map(\.medianTimeToFirstToken) == [0.5, 1.0, 1.5] as [Double?])
        #expect(scores.turns.map(\.medianReuseRatio) == [0.0, 0.4, 0.8] as [Double?])
    }

    @Test func onlyMeasuredReplaysTaggedMultiTurnIFCount() {
        let untagged = Self.replay("x", [[Self.verdict("lower", false)]], tags: ["recall"])
        let warmup = Self.replay("w", [[Self.verdict("lower", false)]], warmup: true)
        #expect(InstructionFollowingScores([untagged, warmup]) == nil)
        #expect(InstructionFollowingScores(Self.replays + [untagged, warmup]) == InstructionFollowingScores(Self.replays))
    }

    /// A turn the runtime could not answer has failing verdicts (the grader's), so the
    /// conversation stops surviving there; a turn without checks is neither followed nor failed.
    @Test func aTurnWithoutChecksNeitherCountsNorEndsSurvival() throws {
        let gap = Self.replay("g", [[Self.verdict("lower", true)], [], [Self.verdict("lower", false)]])
        let scores = try #require(InstructionFollowingScores([gap]))
        #expect(scores.turns.map(\.prompts) == [1, 0, 1])
        #expect(scores.turns.map(\.survival) == [1.0, 1.0, 0.0])
        #expect(scores.turns.map(\.carried) == [0, 0, 0])
    }

    static func record() -> RunRecord {
        var synthetic = SyntheticRuns(seed: 3)
        var record = synthetic.record(runId: "mtif", commit: SyntheticRuns.commitID(7), suites: ["mtif-global", "smoke"])
        record.suites[0].conversations = Array(Self.replays.prefix(2))
        record.suites[1].conversations = [Self.replays[2]]
        return record
    }

    @Test func sectionsSplitByModelAndSuite() throws {
        let sections = InstructionFollowingScores.sections([Self.record()], labels: ["smol"])
        let section = try #require(sections.first)
        #expect(section.label == "smol")
        #expect(section.parts.map(\.name) == ["mtif-global", "smoke"])
        #expect(section.parts.map(\.scores.replays) == [2, 1])
        #expect(section.all == InstructionFollowingScores(Self.replays))
    }

    @Test func everyReportShowsTheScoresOnlyWhenAConversationIsTagged() throws {
        let record = Self.record()
        let terminal = RunReport.render(record)
        #expect(terminal.contains("multi-turn instruction following · 3 conversations tagged multi-turn-if"))
        #expect(terminal.contains("forgot"))
        let markdown = MarkdownReport.render(runs: [record])
        #expect(markdown.contains("| turn | convs | prompt strict | prompt loose | instr. strict | instr. loose | forgot | survival |"))
        #expect(markdown.contains("| 2 | 3 | 67% | 100% | 75% | 100% | 1/3 | 33% |"))
        let html = HTMLReport.render(runs: [record])
        #expect(html.contains("<h2>Multi-turn instruction following</h2>"))
        #expect(html.contains("<title>Turn survival</title>"))

        let plain = SyntheticRuns(seed: 3).recordPlain()
        #expect(!RunReport.render(plain).contains("multi-turn instruction following"))
        #expect(!MarkdownReport.render(runs: [plain]).contains("instruction following"))
        #expect(!HTMLReport.render(runs: [plain]).contains("Multi-turn instruction following"))
    }
}

extension SyntheticRuns {
    /// A run without conversations tagged multi-turn-if.
    fileprivate func recordPlain() -> RunRecord {
        var synthetic = self
        return synthetic.record(runId: "plain", commit: SyntheticRuns.commitID(8))
    }
}
