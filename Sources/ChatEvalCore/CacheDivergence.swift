/// The first difference between a turn's answer with the session cache and cold: by token where
/// both have token ids, else by character.
public struct CacheDivergence: Sendable, Hashable {
    /// 1-based turn.
    public var turn: Int
    /// 0-based index of the first differing token; nil when compared by text.
    public var token: Int?
    public var sessionTokenID: Int32?
    public var coldTokenID: Int32?
    /// The text around the first differing character.
    public var text: TextDivergence?
    /// The prompt token counts, when they differ (the same history tokenized into other counts).
    public var promptTokens: (session: Int?, cold: Int?)?

    public static func == (a: CacheDivergence, b: CacheDivergence) -> Bool {
        a.turn == b.turn && a.token == b.token && a.sessionTokenID == b.sessionTokenID && a.coldTokenID == b.coldTokenID
            && a.text == b.text && a.promptTokens?.session == b.promptTokens?.session && a.promptTokens?.cold == b.promptTokens?.cold
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(turn)
        hasher.combine(token)
    }

    /// Nil when the answers (and prompts) are identical.
    public init?(turn: Int, session: (String, [Int32]?), cold: (String, [Int32]?), prompts: (Int?, Int?)?) {
        self.turn = turn
        promptTokens = prompts.map { (session: $0.0, cold: $0.1) }
        text = TextDivergence(session.0, cold.0)
        if let a = session.1, let b = cold.1 {
            var index = 0
            while index < min(a.count, b.count), a[index] == b[index] { index += 1 }
            if index < max(a.count, b.count) {
                token = index
                sessionTokenID = index < a.count ? a[index] : nil
                coldTokenID = index < b.count ? b[index] : nil
            }
        }
        if token == nil, text == nil, prompts == nil { return nil }
    }
}
