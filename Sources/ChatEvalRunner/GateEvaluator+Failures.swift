import ChatEvalCore
import ChatEvalStore

extension GateEvaluator {
    /// Every failed gate of `records`, as "suite [model]: gate bound, found value" (the model
    /// named where several ran side by side); empty when every gate passed.
    public static func failures(_ records: [RunRecord]) -> [String] {
        records.flatMap { record in
            record.suites.flatMap { suite in
                suite.gates.filter { !$0.passed }.map {
                    "\(suite.name)\(record.group.map { " [\($0.label)]" } ?? ""): \($0.described), found \($0.found)"
                }
            }
        }
    }
}
