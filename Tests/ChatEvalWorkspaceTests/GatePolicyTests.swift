import ChatEvalCompare
import ChatEvalCore
import ChatEvalStore
import ChatEvalTestKit
import ChatEvalWorkspace
import Foundation
import Testing

/// A comparison becomes an exit only here: each way out, built to take it, with the status the
/// command line documents.
@Suite struct GatePolicyTests {
    /// `count` runs per side of one suite (2 conversations × 4 turns), head's checks failing
    /// everywhere when `headFails`, head measured on another CPU when `headMachine` says so.
    static func comparison(count: Int, headFails: Bool = false, headMachine: MachineInfo = SyntheticRuns.machine) -> Comparison {
        var synthetic = SyntheticRuns(seed: 7)
        let base = (0..<count).map { synthetic.record(runId: "base-\($0)", commit: SyntheticRuns.commitID(1)) }
        let head = (0..<count).map {
            synthetic.record(
                runId: "head-\($0)", commit: SyntheticRuns.commitID(2), machine: headMachine, failing: { _, _ in headFails })
        }
        return RunComparator.compare(
            base: ComparedRuns(runs: base, sources: base.map(\.runId)), head: ComparedRuns(runs: head, sources: head.map(\.runId)),
            settings: .default)
    }

    static func status(_ policy: GatePolicy, _ comparison: Comparison) -> ChatEvalWorkspace.ExitStatus? {
        do {
            try policy.check(comparison)
            return nil
        } catch {
            return (error as? CommandFailure)?.status
        }
    }

    @Test func checksThatFailEverywhereOnHeadAreAGateFailure() {
        let result = Self.comparison(count: 10, headFails: true)
        #expect(result.hasRegression)
        #expect(Self.status(GatePolicy(allowMismatch: false, undecided: .pass), result) == .gateFailed)
    }

    @Test func sidesOfAnotherMachineAreBadInputUnlessAllowed() {
        var other = SyntheticRuns.machine
        other.cpuModel = "Another CPU @ 2.0GHz"
        let result = Self.comparison(count: 3, headMachine: other)
        #expect(!result.mismatches.isEmpty)
        #expect(Self.status(GatePolicy(allowMismatch: false, undecided: .pass), result) == .badInput)
        #expect(Self.status(GatePolicy(allowMismatch: true, undecided: .pass), result) != .badInput)
    }

    /// One run a side decides little: passing by default, a gate failure with `--undecided fail`.
    @Test func anUndecidedComparisonPassesUnlessTheCIAsksOtherwise() {
        let result = Self.comparison(count: 1)
        #expect(!result.hasRegression && !result.isDecided)
        #expect(Self.status(GatePolicy(allowMismatch: false, undecided: .pass), result) == nil)
        #expect(Self.status(GatePolicy(allowMismatch: false, undecided: .fail), result) == .gateFailed)
    }

    @Test func aRunsFailedGateIsNamedWithItsSuiteAndModel() throws {
        var synthetic = SyntheticRuns(seed: 3)
        var record = synthetic.record(runId: "run", commit: SyntheticRuns.commitID(1))
        #expect(throws: Never.self) { try GatePolicy.checkGates([record]) }
        record.suites[0].gates = [GateOutcome(gate: "pass_rate", passed: false, expected: "≥ 90%", found: "75%")]
        record.group = RunGroup(id: "g", index: 2, count: 2, label: "gemma")
        do {
            try GatePolicy.checkGates([record])
            Issue.record("a failed gate passed")
        } catch let failure as CommandFailure {
            #expect(failure.status == .gateFailed)
            #expect(failure.message.hasPrefix("gate failed — smoke [gemma]: "), "\(failure.message)")
            #expect(failure.message.hasSuffix("found 75%"), "\(failure.message)")
        }
    }
}
