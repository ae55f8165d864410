/// Response headers: names compared without case, values as sent.
public struct HTTPHeaders: Sendable, Hashable {
    public var fields: [(name: String, value: String)]

    public init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }

    public func first(_ name: String) -> String? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    public static func == (a: HTTPHeaders, b: HTTPHeaders) -> Bool { a.fields.elementsEqual(b.fields) { $0 == $1 } }
    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }
}
