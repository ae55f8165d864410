import ChatEvalCore
import ChatEvalStore

extension GateEvaluator {
    /// Every failed gate of `records` (`RunRecord.failedGates`); empty when every gate passed.
    public static func failures(_ records: [RunRecord]) -> [String] {
        records.flatMap(\.failedGates)
    }
}
