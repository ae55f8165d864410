/// Why a pattern cannot be compiled; `offset` counts code points from the pattern's start.
struct RegexSyntaxError: Error, Sendable, Hashable {
    var message: String
    var offset: Int
}
