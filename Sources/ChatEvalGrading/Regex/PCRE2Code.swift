internal import CPCRE2
import Synchronization

/// Nesting of groups a pattern may have: PCRE2's compiler recurses once per level, so the limit
/// keeps a pattern (possibly quoting an answer through a placeholder) from exhausting the stack.
let regexParenthesesNestLimit: UInt32 = 250

/// A compiled pattern. PCRE2 code is read-only once compiled, so one instance serves any number
/// of threads at once.
///
/// A linear-time pattern (`countsSteps` false) is JIT-compiled at once. A step-counted one runs
/// in the interpreter for its first `jitAfterOperations` operations (searches, `findall`s); then
/// a JIT-compiled copy is made (`jitPointer`), which `RegexMatcher` tries first. With the
/// auto-callouts, JIT compilation costs 15–35 times the compilation itself (PCRE2 10.42, measured
/// on the 2-core Intel Xeon: 34 µs for a 16-unit pattern, 0.39 ms for 200 units, 12 ms for
/// 4,000), against a few microseconds saved per match. That is worth it for a suite's patterns,
/// matched on every answer, not for a pattern quoting an answer through a placeholder, made anew
/// for one turn; and never for patterns longer than `jitUnitLimit`, whose machine code grows with
/// them (0.7 MB for 4,000 units).
final class PCRE2Code: @unchecked Sendable {
    let pointer: OpaquePointer
    /// Capturing groups in the pattern.
    let captureCount: Int
    /// PCRE2's own start analysis: units a match can begin with, and a unit every match contains.
    let firstUnits: CodeUnitSet?
    let requiredUnits: CodeUnitSet?
    /// Bytes of one backtracking frame of the interpreter (PCRE2_INFO_FRAMESIZE): its heap use is
    /// this times the backtracking depth.
    let interpreterFrameBytes: Int

    /// Operations of a step-counted pattern in the interpreter before its JIT copy is made.
    static let jitAfterOperations = 2
    /// Patterns longer than this (in UTF-32 units) are never JIT-compiled with step counting.
    static let jitUnitLimit = 1_000

    /// The JIT-compiled copy of a step-counted pattern, once made (its address; 0 before): its
    /// owner, freed in deinit. Set once, by compare-and-exchange.
    private let jitCopy = Atomic<Int>(0)
    /// Operations begun so far (`beginOperation`; step-counted patterns within `jitUnitLimit` only).
    private let operations = Atomic<Int>(0)
    /// A step-counted pattern within `jitUnitLimit` units whose matches may start anywhere: one
    /// whose every match must start at the text's start (`\A`, `^` without MULTILINE) or at a
    /// line's start (`^` with it) stays in the interpreter, which skips start positions the JIT
    /// code tries, so the two would charge different steps (a few, measured: `RegexEngineTests`).
    private let mayJIT: Bool
    /// Set when the JIT code ran out of its stack (`PCRE2_ERROR_JIT_STACKLIMIT`): a pattern that
    /// backtracks that deep would do so again, so the interpreter takes every later call at once.
    private let jitStackExhausted = Atomic<Bool>(false)

    /// Compiles UTF-32 `units`. `countsSteps` adds the auto-callouts that the step budget needs
    /// (JIT code calls them too: see `RegexMatcher.match` for how the two engines share the
    /// work); without them the pattern is JIT-compiled at once. Throws PCRE2's error code and the
    /// offset of the unit it failed at.
    init(_ units: [UInt32], options: UInt32, countsSteps: Bool) throws(PCRE2CompileFailure) {
        guard let context = pcre2_compile_context_create_32(nil) else {
            throw PCRE2CompileFailure(error: PCRE2Error(PCRE2_ERROR_NOMEMORY, in: "pcre2_compile_context_create_32"), offset: 0)
        }
        defer { pcre2_compile_context_free_32(context) }
        pcre2_set_newline_32(context, UInt32(PCRE2_NEWLINE_LF))
        pcre2_set_parens_nest_limit_32(context, regexParenthesesNestLimit)
        var errorCode: Int32 = 0
        var errorOffset = 0
        let allOptions =
            options | UInt32(PCRE2_UTF | PCRE2_UCP | PCRE2_NO_UTF_CHECK | PCRE2_ALT_CIRCUMFLEX)
            | (countsSteps ? UInt32(PCRE2_AUTO_CALLOUT) : 0)
        let compiled = units.withUnsafeBufferPointer { buffer in
            withCodeUnits(buffer) { pcre2_compile_32($0, $1, allOptions, &errorCode, &errorOffset, context) }
        }
        guard let compiled else {
            throw PCRE2CompileFailure(error: PCRE2Error(errorCode, in: "pcre2_compile_32"), offset: errorOffset)
        }
        pointer = compiled
        var captures: UInt32 = 0
        pcre2_pattern_info_32(compiled, UInt32(PCRE2_INFO_CAPTURECOUNT), &captures)
        captureCount = Int(captures)
        var firstType: UInt32 = 0
        pcre2_pattern_info_32(compiled, UInt32(PCRE2_INFO_FIRSTCODETYPE), &firstType)
        firstUnits = Self.firstUnits(of: compiled, type: firstType)
        requiredUnits = Self.requiredUnits(of: compiled)
        var compiledOptions: UInt32 = 0
        pcre2_pattern_info_32(compiled, UInt32(PCRE2_INFO_ALLOPTIONS), &compiledOptions)
        let startsAtLineStarts = compiledOptions & UInt32(PCRE2_ANCHORED) != 0 || firstType == 2
        var frameBytes = 0
        pcre2_pattern_info_32(compiled, UInt32(PCRE2_INFO_FRAMESIZE), &frameBytes)
        interpreterFrameBytes = frameBytes
        mayJIT = countsSteps && !startsAtLineStarts && units.count <= Self.jitUnitLimit
        // A failed JIT compilation leaves the interpreter in charge: same results, slower.
        if !countsSteps { _ = pcre2_jit_compile_32(compiled, UInt32(PCRE2_JIT_COMPLETE)) }
    }

    deinit {
        if let copy = OpaquePointer(bitPattern: jitCopy.load(ordering: .acquiring)) { pcre2_code_free_32(copy) }
        pcre2_code_free_32(pointer)
    }

    /// Counts one operation (a search, a `findall`, a `sub`) of this pattern: the operation after
    /// the first `jitAfterOperations` makes the JIT-compiled copy. Counted per operation, not per
    /// match call, so that a pattern made for one answer is not compiled for a `findall` of many
    /// matches.
    func beginOperation() {
        // Past the count, only read: threads grading at once do not keep writing one counter.
        guard mayJIT, operations.load(ordering: .relaxed) <= Self.jitAfterOperations,
            operations.add(1, ordering: .relaxed).newValue == Self.jitAfterOperations + 1
        else { return }
        makeJITCopy()
    }

    /// The JIT-compiled copy of this step-counted pattern: nil before `beginOperation` (or
    /// `makeJITCopy`) made it, for a pattern over `jitUnitLimit` units, where PCRE2 cannot
    /// JIT-compile it, and once the JIT code has run out of its stack.
    func jitPointer() -> OpaquePointer? {
        guard mayJIT, !jitStackExhausted.load(ordering: .relaxed) else { return nil }
        return OpaquePointer(bitPattern: jitCopy.load(ordering: .acquiring))
    }

    /// Called when the JIT code ran out of its stack: see `jitStackExhausted`.
    func jitStackRanOut() { jitStackExhausted.store(true, ordering: .relaxed) }

    /// Makes the JIT-compiled copy now, whatever the count (tests comparing the two engines).
    func makeJITCopy() {
        guard mayJIT, jitCopy.load(ordering: .acquiring) == 0, let copy = pcre2_code_copy_32(pointer) else { return }
        guard pcre2_jit_compile_32(copy, UInt32(PCRE2_JIT_COMPLETE)) == 0,
            jitCopy.compareExchange(expected: 0, desired: Int(bitPattern: copy), ordering: .acquiringAndReleasing).exchanged
        else { return pcre2_code_free_32(copy) }
    }

    /// The units a match can start with (PCRE2_INFO_FIRSTCODEUNIT or FIRSTBITMAP), when known;
    /// `type` is the pattern's PCRE2_INFO_FIRSTCODETYPE.
    private static func firstUnits(of code: OpaquePointer, type: UInt32) -> CodeUnitSet? {
        if type == 1 {
            var unit: UInt32 = 0
            pcre2_pattern_info_32(code, UInt32(PCRE2_INFO_FIRSTCODEUNIT), &unit)
            return CodeUnitSet(anyCaseOf: unit)
        }
        var bitmap: UnsafePointer<UInt8>?
        pcre2_pattern_info_32(code, UInt32(PCRE2_INFO_FIRSTBITMAP), &bitmap)
        return type == 0 ? bitmap.map(CodeUnitSet.init(bitmap:)) : nil
    }

    /// A unit every match contains (PCRE2_INFO_LASTCODEUNIT), when known.
    private static func requiredUnits(of code: OpaquePointer) -> CodeUnitSet? {
        var type: UInt32 = 0
        pcre2_pattern_info_32(code, UInt32(PCRE2_INFO_LASTCODETYPE), &type)
        guard type == 1 else { return nil }
        var unit: UInt32 = 0
        pcre2_pattern_info_32(code, UInt32(PCRE2_INFO_LASTCODEUNIT), &unit)
        return CodeUnitSet(anyCaseOf: unit)
    }

    /// False when a text holding only the units of `present` cannot match: PCRE2 checks the same
    /// inside every `pcre2_match`, and knowing it before the call saves the call (the NLTK tokenizer
    /// runs 33 patterns on every sentence, most of which cannot match it).
    func mayMatch(_ present: CodeUnitSet) -> Bool {
        (firstUnits.map(present.intersects) ?? true) && (requiredUnits.map(present.intersects) ?? true)
    }

    /// True when this PCRE2's `\w` under PCRE2_UCP is `[\p{L}\p{N}_]`, Python's word class: up to
    /// 10.42 (10.43 added Mn and Pc, per its ChangeLog).
    static let unicodeWordIsPythons: Bool = {
        var buffer = [UInt32](repeating: 0, count: 64)
        let length = buffer.withUnsafeMutableBufferPointer { pcre2_config_32(UInt32(PCRE2_CONFIG_VERSION), $0.baseAddress) }
        let version = String(scalars: buffer.prefix(max(0, Int(length) - 1)).compactMap(Unicode.Scalar.init))
        let numbers = version.prefix { $0 != " " }.split(separator: ".").compactMap { Int($0) }
        guard numbers.count >= 2 else { return false }
        return numbers[0] < 10 || (numbers[0] == 10 && numbers[1] <= 42)
    }()
}

/// Calls `body` with a pointer to `units` and their count: PCRE2 wants a pointer even for none.
func withCodeUnits<R>(_ units: UnsafeBufferPointer<UInt32>, _ body: (UnsafePointer<UInt32>, Int) -> R) -> R {
    if let base = units.baseAddress { return body(base, units.count) }
    var none: UInt32 = 0
    return withUnsafePointer(to: &none) { body($0, 0) }
}
