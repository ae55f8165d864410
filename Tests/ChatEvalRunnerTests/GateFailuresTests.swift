import ChatEvalCore
import ChatEvalRunner
import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

/// The failed gates `run` and `merge` name when they exit 1: each suite's, with the model where
/// several ran side by side.
@Suite struct GateFailuresTests {
    private func record(_ gates: [String: [GateOutcome]], group: RunGroup? = nil) -> RunRecord {
        let runtime = ScriptedRuntime { _, _ in .answer(["ok"], ScriptedRuntime.metrics(prompt: 1)) }
        var record = RunRecordMaker(command: ["test"], runtime: runtime.identity, modelSha256: nil, machineLoad: MachineLoad.sample())
            .record(
                plan: RunPlan(suites: [], settings: RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0)), git: nil,
                project: nil)
        record.suites = gates.sorted { $0.key < $1.key }.map { SuiteRecord(name: $0.key, path: "\($0.key).yaml", gates: $0.value) }
        record.group = group
        return record
    }

    @Test func onlyFailedGatesAreNamedWithTheirSuiteModelBoundAndFinding() {
        let passed = GateOutcome(gate: "ttft p95", passed: true, expected: "≤ 2", found: "1.2")
        let failed = GateOutcome(gate: "min_pass_rate", passed: false, expected: "≥ 0.6", found: "0.45 (9 of 20 checks)")
        let implied = GateOutcome(gate: "min_pass_rate", passed: false, expected: "≥ 1", found: "0.9", implied: true)
        #expect(GateEvaluator.failures([record(["a": [passed]])]).isEmpty)
        #expect(
            GateEvaluator.failures([
                record(["a": [passed, failed]]), record(["b": [implied]], group: RunGroup(id: "g", index: 2, count: 2, label: "gemma")),
            ]) == [
                "a: min_pass_rate ≥ 0.6, found 0.45 (9 of 20 checks)",
                "b [gemma]: min_pass_rate ≥ 1 (implied: no gates declared), found 0.9",
            ])
    }
}
