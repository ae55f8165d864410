import ChatEvalCompare
import ChatEvalReport
import ChatEvalRunner
import ChatEvalStore

/// What a comparison and a run's gates exit with: the verdict turned into a `CommandFailure`
/// (package-benchmark's split: comparisons return values, only the command line's edge exits).
package struct GatePolicy: Sendable {
    /// Gate even when the sides ran on different machines, builds or settings.
    package var allowMismatch: Bool
    package var undecided: UndecidedPolicy

    package init(allowMismatch: Bool, undecided: UndecidedPolicy) {
        self.allowMismatch = allowMismatch
        self.undecided = undecided
    }

    /// Exit 2 for incomparable sides (unless allowed), 1 for a regression (or a comparison not
    /// decided, with `--undecided fail`), 4 when nothing was measured on both sides (no verdict),
    /// else returns.
    package func check(_ result: Comparison) throws {
        if !result.mismatches.isEmpty && !allowMismatch {
            let list = result.mismatches.map { "\($0.field) (\($0.base) → \($0.head))" }.joined(separator: "; ")
            throw failure(
                "the sides were not measured alike: \(list); compare runs of one machine and build, or pass --allow-mismatch", .badInput)
        }
        if result.hasRegression {
            throw failure(ComparisonReport.headline(result), .gateFailed)
        }
        if result.measuredNothing {
            throw failure(
                ComparisonReport.headline(result) + " Measure on a quieter runner, raise time_budget, "
                    + "or keep disturbed replays with --busy-threshold off", .noVerdict)
        }
        if !result.isDecided && undecided == .fail {
            throw failure(
                ComparisonReport.headline(result) + " (--undecided fail: what was not shown not worse fails the gate)", .gateFailed)
        }
    }

    /// Exit 1 naming every failed gate of `records` (with the model where several ran side by side).
    package static func checkGates(_ records: [RunRecord]) throws {
        let failed = GateEvaluator.failures(records)
        guard failed.isEmpty else { throw failure("gate failed — " + failed.joined(separator: "; "), .gateFailed) }
    }
}
