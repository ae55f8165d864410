/// IFEval's comparison relations.
enum IFEvalRelation: String, CaseIterable, Sendable {
    case lessThan = "less than"
    case atLeast = "at least"

    func holds(_ actual: Int, _ threshold: Int) -> Bool {
        switch self {
        case .lessThan: actual < threshold
        case .atLeast: actual >= threshold
        }
    }

    func describe(_ threshold: Int, _ unit: String) -> String { "\(rawValue) \(threshold) \(unit)" }
}
