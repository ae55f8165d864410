import ChatEvalCore

struct JSONRequirement: Sendable {
    let path: JSONPath
    let type: JSONType
}
