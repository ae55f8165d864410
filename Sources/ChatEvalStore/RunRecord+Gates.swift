import ChatEvalCore

extension RunRecord {
    /// Every failed gate of the run, as "suite [model]: gate bound, found value" (the model named
    /// where several ran side by side); empty when every gate passed or none was evaluated.
    public var failedGates: [String] {
        suites.flatMap { suite in
            suite.gates.filter { !$0.passed }.map {
                "\(suite.name)\(group.map { " [\($0.label)]" } ?? ""): \($0.described), found \($0.found)"
            }
        }
    }
}
