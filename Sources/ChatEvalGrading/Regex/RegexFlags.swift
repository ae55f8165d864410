internal import CPCRE2

/// Pattern options, as Python's `re` flags name them.
struct RegexFlags: OptionSet, Sendable, Hashable {
    let rawValue: UInt8
    static let ignoreCase = RegexFlags(rawValue: 1)
    static let multiline = RegexFlags(rawValue: 2)
    static let dotAll = RegexFlags(rawValue: 4)
    /// `\w`, `\s` and `\b` as the third-party `regex` module defines them (Unicode TR #18), for
    /// the patterns nltk ≥ 3.10 compiles with it. Without it, Python `re`'s definitions.
    static let regexModule = RegexFlags(rawValue: 16)

    var pcre2Options: UInt32 {
        (contains(.ignoreCase) ? UInt32(PCRE2_CASELESS) : 0) | (contains(.multiline) ? UInt32(PCRE2_MULTILINE) : 0)
            | (contains(.dotAll) ? UInt32(PCRE2_DOTALL) : 0)
    }
}
