/// A `re.sub` replacement: literal text and group references (`\1`, `\g<2>`, `\g<0>`). Written
/// here because PCRE2's substitution syntax (`$1`) is not Python's.
struct ReplacementTemplate: Sendable {
    enum Piece: Sendable {
        case literal(Scalars)
        case group(Int)
    }
    let pieces: [Piece]

    init(_ template: String) {
        var pieces: [Piece] = []
        var literal = Scalars()
        let s = template.scalars
        var i = 0
        while i < s.count {
            if s[i] == "\\", i + 1 < s.count {
                let c = s[i + 1]
                if let d = Int(String(c)), d > 0 {
                    if !literal.isEmpty {
                        pieces.append(.literal(literal))
                        literal = []
                    }
                    pieces.append(.group(d))
                    i += 2
                    continue
                }
                if c == "g", i + 2 < s.count, s[i + 2] == "<", let close = s[(i + 3)...].firstIndex(of: ">"),
                    let g = Int(String(scalars: s[(i + 3)..<close]))
                {
                    if !literal.isEmpty {
                        pieces.append(.literal(literal))
                        literal = []
                    }
                    pieces.append(.group(g))
                    i = close + 1
                    continue
                }
                if c == "n" {
                    literal.append("\n")
                    i += 2
                    continue
                }
                if c == "\\" {
                    literal.append("\\")
                    i += 2
                    continue
                }
            }
            literal.append(s[i])
            i += 1
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        self.pieces = pieces
    }
}
