import ChatEvalCore

/// How a type is built from its arguments.
struct CheckFactory: Sendable {
    let info: CheckTypeInfo
    let build: @Sendable (ArgumentReader) throws(CheckDefinitionError) -> any CheckEvaluator

    init(
        _ name: String, _ family: CheckTypeInfo.Family, _ summary: String, arguments: [ArgumentInfo] = [],
        hasScore: Bool = false, build: @escaping @Sendable (ArgumentReader) throws(CheckDefinitionError) -> any CheckEvaluator
    ) {
        info = CheckTypeInfo(name: name, family: family, summary: summary, arguments: arguments, hasScore: hasScore)
        self.build = build
    }
}
