import ChatEvalCore

enum JSONType: String, CaseIterable, Sendable {
    case string, number, integer, boolean, null, array, object, any

    func accepts(_ value: ParsedJSON) -> Bool {
        switch (self, value) {
        case (.any, _), (.string, .string), (.boolean, .bool), (.null, .null), (.array, .array), (.object, .object): return true
        case (.number, .number): return true
        case (.integer, .number(let d, let integral)): return integral || (d.isFinite && d.rounded() == d)
        default: return false
        }
    }
}
