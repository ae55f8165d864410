/// A placeholder naming an earlier turn: `turnN.answer` or `turnN.user`, N from 1.
public struct TurnReference: Sendable, Hashable {
    public enum Field: String, Sendable { case answer, user }
    public var turn: Int
    public var field: Field

    public init?(_ name: String) {
        guard name.hasPrefix("turn"), let dot = name.firstIndex(of: ".") else { return nil }
        guard let turn = Int(name[name.index(name.startIndex, offsetBy: 4)..<dot]), turn >= 1,
            let field = Field(rawValue: String(name[name.index(after: dot)...]))
        else { return nil }
        self.turn = turn
        self.field = field
    }
}
