import ChatEvalCompare
import ChatEvalCore
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import ChatEvalTestKit
import Foundation
import Testing

/// `run --baseline`'s records and result files as a library: the two records paired, their
/// journals started in the folder, the turn budget, and the comparison kept only when both
/// sides finished.
@Suite struct BaselineGateTests {
    private func plan(_ conversations: Int, turns: Int) throws -> RunPlan {
        let yaml =
            "name: s\nconversations:\n"
            + (1...conversations).map {
                "  - id: q\($0)\n    turns: [" + (1...turns).map { "\"turn \($0)\"" }.joined(separator: ", ") + "]\n"
            }
            .joined()
        return RunPlan(
            suites: [try SuiteLoader.parse(yaml, file: "s.yaml")],
            settings: RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0))
    }

    private func record(_ runtime: ScriptedRuntime, _ plan: RunPlan) -> RunRecord {
        RunRecordMaker(command: ["test"], runtime: runtime.identity, modelSha256: nil, machineLoad: MachineLoad.sample())
            .record(plan: plan, git: nil, project: nil)
    }

    @Test func theRecordsArePairedTheirJournalsStartedAndTheComparisonKeptOnlyWhenBothFinished() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-gate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (basePlan, headPlan) = (try plan(2, turns: 2), try plan(2, turns: 2))
        let runtime = ScriptedRuntime { _, _ in .answer(["ok"], ScriptedRuntime.metrics(prompt: 20, generated: 4)) }
        let gate = try BaselineGate(
            base: record(runtime, basePlan), head: record(runtime, headPlan), baseSuites: basePlan.suites, headSuites: headPlan.suites,
            folder: folder)
        let (base, head) = (gate.records[0], gate.records[1])
        #expect(base.role == .baseline && head.role == .head)
        #expect(base.pairedRunId == head.runId && head.pairedRunId == base.runId)
        #expect(
            gate.writers.map { $0.journalURL.deletingLastPathComponent().standardizedFileURL.path }
                == Array(repeating: folder.standardizedFileURL.path, count: 2))
        #expect(gate.writers.allSatisfy { FileManager.default.fileExists(atPath: $0.journalURL.path) })

        let paired = PairedRun(
            base: RunArm(label: "base", runtime: runtime, plan: basePlan), head: RunArm(label: "head", runtime: runtime, plan: headPlan),
            design: .fixed(4), settings: .default, loadProbe: { { ReplayLoad(otherCores: 0.01, seconds: 0.1) } })
        #expect(BaselineGate.turnsAtMost(paired) == (2 * 2 + 2 * 2) * 4)
        let unequal = PairedRun(
            base: RunArm(label: "base", runtime: runtime, plan: try plan(2, turns: 1)),
            head: RunArm(label: "head", runtime: runtime, plan: try plan(3, turns: 2)), design: .rounds(maximum: 10), settings: .default)
        #expect(BaselineGate.turnsAtMost(unequal) == (2 * 1 + 3 * 2) * 10)
        let outcome = try await gate.run(paired, stop: StopRequest(), observer: nil)
        let finals = [outcome.base, outcome.head]
        try expectTheFilesReproduceTheGate(outcome.comparison, writers: gate.writers)
        #expect(outcome.base.pairedRunId == outcome.head.runId)
        #expect(BaselineGate.finishedComparison(outcome, records: finals, cancelled: false) != nil)
        #expect(BaselineGate.finishedComparison(outcome, records: finals, cancelled: true) == nil)
        var unfinished = finals
        unfinished[1].status = .incomplete
        #expect(BaselineGate.finishedComparison(outcome, records: unfinished, cancelled: false) == nil)
    }
}
