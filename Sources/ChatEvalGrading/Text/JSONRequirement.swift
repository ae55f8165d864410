import ChatEvalCore

/// One path a `json` check requires, and the type its value must have.
struct JSONRequirement: Sendable {
    let path: JSONPath
    let type: JSONType
}
