internal import CPCRE2
import Synchronization

/// Compiled patterns by pattern, flags and kind, shared by every check of the process, so that
/// a check rebuilt for every turn (its placeholders filled anew) compiles its pattern once.
/// Bounded: when full it is emptied (patterns quoting answers are new every turn; a suite's own
/// patterns are far fewer than the bound).
final class PatternCache: Sendable {
    struct Key: Hashable, Sendable {
        /// The pattern's code points: Swift's `String` equality would make canonically equivalent
        /// patterns (KELVIN SIGN and K, precomposed and combining accents) one key; Python does not.
        let pattern: Scalars
        let flags: RegexFlags
        let linearTime: Bool
    }

    static let shared = PatternCache()
    static let capacity = 1024

    private let compiled = Mutex<[Key: PCRE2Code]>([:])

    func code(for key: Key) throws(RegexSyntaxError) -> PCRE2Code {
        if let code = compiled.withLock({ $0[key] }) { return code }
        let code = try Self.compile(key)
        compiled.withLock { table in
            if table.count >= Self.capacity { table.removeAll(keepingCapacity: true) }
            table[key] = code
        }
        return code
    }

    private static func compile(_ key: Key) throws(RegexSyntaxError) -> PCRE2Code {
        let source = key.pattern
        let translation = try PythonPatternTranslator.translate(
            source, flags: key.flags,
            nativeWordBoundary: PCRE2Code.unicodeWordIsPythons)
        do {
            return try PCRE2Code(translation.units, options: key.flags.pcre2Options, countsSteps: !key.linearTime)
        } catch {
            let offset = error.offset < translation.sourceOffsets.count ? translation.sourceOffsets[error.offset] : source.count
            throw RegexSyntaxError(message: error.error.message, offset: offset)
        }
    }
}
