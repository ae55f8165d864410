/// Where two texts first differ: the character offset, a little common text before it, and each
/// text from there (two answers of one turn, base and head, or with the session cache and cold).
public struct TextDivergence: Codable, Sendable, Hashable {
    public var offset: Int
    /// Up to `context` characters both texts share before `offset`.
    public var before: String
    /// Up to `context` characters of each text from `offset` (empty where a text ends there).
    public var first: String
    public var second: String

    /// The first difference of `first` and `second`, by characters; nil when they are equal.
    public init?(_ first: String, _ second: String, context: Int = 24) {
        let a = Array(first), b = Array(second)
        var index = 0
        while index < min(a.count, b.count), a[index] == b[index] { index += 1 }
        guard index < max(a.count, b.count) else { return nil }
        offset = index
        before = String(a[max(0, index - context)..<index])
        self.first = String(a[index..<min(a.count, index + context)])
        self.second = String(b[index..<min(b.count, index + context)])
    }
}
