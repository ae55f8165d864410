internal import CPCRE2
import Synchronization

/// A PCRE2 call that failed: which call, PCRE2's error code, and PCRE2's message for it.
struct PCRE2Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// PCRE2's error code (`PCRE2_ERROR_*`, negative); the ones grading reports by name have names.
    struct Code: RawRepresentable, Sendable, Hashable {
        let rawValue: Int32
        init(rawValue: Int32) { self.rawValue = rawValue }

        /// A start position needed more than `RegexLimits.matchLimit` backtracking steps.
        static let matchLimit = Code(rawValue: PCRE2_ERROR_MATCHLIMIT)
        /// Backtracking nested deeper than `RegexLimits.depthLimit`.
        static let depthLimit = Code(rawValue: PCRE2_ERROR_DEPTHLIMIT)
        /// Backtracking needed more memory than `RegexLimits.heapLimitKiB`.
        static let heapLimit = Code(rawValue: PCRE2_ERROR_HEAPLIMIT)
        /// The operation spent its `RegexLimits.stepBudget` (our callout's answer).
        static let stepBudget = Code(rawValue: PCRE2_ERROR_CALLOUT)
    }

    let code: Code
    /// The PCRE2 function that reported it, e.g. `pcre2_match_32`.
    let function: String
    /// PCRE2's text for the code (`pcre2_get_error_message`).
    let message: String

    init(_ code: Int32, in function: String) {
        self.code = Code(rawValue: code)
        self.function = function
        message = Self.message(for: code)
    }

    /// The limit this error is about, in words (`match limit`…), or nil for other failures.
    var limitName: String? {
        switch code {
        case .matchLimit: "match limit"
        case .depthLimit: "depth limit"
        case .heapLimit: "heap limit"
        case .stepBudget: "step budget"
        default: nil
        }
    }

    var description: String {
        code == .stepBudget ? "\(function): step budget exhausted" : "\(function): \(message) (PCRE2 error \(code.rawValue))"
    }

    static func message(for code: Int32) -> String {
        var buffer = [UInt32](repeating: 0, count: 256)
        let length = buffer.withUnsafeMutableBufferPointer { pcre2_get_error_message_32(code, $0.baseAddress, $0.count) }
        guard length > 0 else { return "unknown PCRE2 error \(code)" }
        return String(scalars: buffer.prefix(Int(length)).compactMap(Unicode.Scalar.init))
    }
}

/// What one regex operation (a search, a `findall`, a `sub`) may use; exceeding any of these
/// gives an error verdict, never a trap or a stall.
///
/// PCRE2 applies `matchLimit`, `depthLimit` and `heapLimitKiB` to each start position of each
/// call: its match counter starts again at every start position (measured with PCRE2 10.42:
/// `(a+)+b` over 38,000 characters of `a…ac` ran 46 s without reaching the default limit). The
/// step budget is therefore kept here, over the whole operation, by a callout before every
/// pattern item (PCRE2_AUTO_CALLOUT): each item charges one step plus the distance the match
/// position moved since the previous one, so scans inside an item (`a*+`) are paid for too.
struct RegexLimits: Sendable, Hashable {
    var matchLimit: UInt32 = 10_000_000
    var depthLimit: UInt32 = 1_000_000
    var heapLimitKiB: UInt32 = 256 * 1024
    /// Steps one operation may take: about 1–2 s of matching at worst.
    var stepBudget = 100_000_000

    static let standard = RegexLimits()
}

/// The regex steps all the checks of one answer may spend together. `RegexLimits.stepBudget`
/// bounds one operation (about 1–2 s); without a bound per answer, 400 regex checks of a
/// catastrophic pattern would each spend a whole operation's budget (minutes for one turn).
/// `Check.evaluate` makes the answer's pool current; every regex operation of the checks draws
/// from it, and once it is spent they fail with "regex exceeded its step budget".
final class RegexStepPool: Sendable {
    /// Steps per answer: three operations' worth.
    static let perAnswer = 3 * RegexLimits.standard.stepBudget

    @TaskLocal static var current: RegexStepPool?

    private let remaining: Mutex<Int>

    init(steps: Int = perAnswer) { remaining = Mutex(steps) }

    /// Reserves up to `wanted` steps; returns how many (0 once spent).
    func take(upTo wanted: Int) -> Int {
        remaining.withLock { left in
            let granted = min(wanted, left)
            left -= granted
            return granted
        }
    }

    func giveBack(_ steps: Int) { remaining.withLock { $0 += steps } }

    var left: Int { remaining.withLock { $0 } }
}

/// Nesting of groups a pattern may have: PCRE2's compiler recurses once per level, so the limit
/// keeps a pattern (possibly quoting an answer through a placeholder) from exhausting the stack.
let regexParenthesesNestLimit: UInt32 = 250

/// A compiled pattern. PCRE2 code is read-only once compiled, so one instance serves any number
/// of threads at once.
final class PCRE2Code: @unchecked Sendable {
    let pointer: OpaquePointer
    /// Capturing groups in the pattern.
    let captureCount: Int
    /// PCRE2's own start analysis: units a match can begin with, and a unit every match contains.
    let firstUnits: CodeUnitSet?
    let requiredUnits: CodeUnitSet?

    /// Compiles UTF-32 `units`. `countsSteps` adds the auto-callouts that the step budget needs;
    /// without it the pattern is JIT-compiled where PCRE2 supports that (for patterns known to
    /// run in linear time). Throws PCRE2's error code and the offset of the unit it failed at.
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
        firstUnits = Self.firstUnits(of: compiled)
        requiredUnits = Self.requiredUnits(of: compiled)
        // A failed JIT compilation leaves the interpreter in charge: same results, slower.
        if !countsSteps { _ = pcre2_jit_compile_32(compiled, UInt32(PCRE2_JIT_COMPLETE)) }
    }

    deinit { pcre2_code_free_32(pointer) }

    /// The units a match can start with (PCRE2_INFO_FIRSTCODEUNIT or FIRSTBITMAP), when known.
    private static func firstUnits(of code: OpaquePointer) -> CodeUnitSet? {
        var type: UInt32 = 0
        pcre2_pattern_info_32(code, UInt32(PCRE2_INFO_FIRSTCODETYPE), &type)
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
private func withCodeUnits<R>(_ units: UnsafeBufferPointer<UInt32>, _ body: (UnsafePointer<UInt32>, Int) -> R) -> R {
    if let base = units.baseAddress { return body(base, units.count) }
    var none: UInt32 = 0
    return withUnsafePointer(to: &none) { body($0, 0) }
}

/// `pcre2_compile_32` refused a pattern: its error, and the code unit it stopped at.
struct PCRE2CompileFailure: Error {
    let error: PCRE2Error
    let offset: Int
}

/// The step counter one operation charges from the callout (see `RegexLimits`).
private struct StepCounter {
    var used = 0
    var budget = 0
    /// Where the previous callout of the current start position was.
    var position = 0
}

/// Called by PCRE2 before every item of a step-counted pattern.
private let chargeStep: @convention(c) (UnsafeMutablePointer<pcre2_callout_block_32>?, UnsafeMutableRawPointer?) -> Int32 = { block, data in
    guard let block, let counter = data?.assumingMemoryBound(to: StepCounter.self) else { return 0 }
    let position = block.pointee.current_position
    if block.pointee.callout_flags & UInt32(PCRE2_CALLOUT_STARTMATCH) != 0 {
        counter.pointee.position = block.pointee.start_match
    }
    let moved = position >= counter.pointee.position ? position - counter.pointee.position : counter.pointee.position - position
    counter.pointee.position = position
    counter.pointee.used += 1 + moved
    return counter.pointee.used > counter.pointee.budget ? PCRE2_ERROR_CALLOUT : 0
}

/// Runs patterns under `RegexLimits`: owns a PCRE2 match context (the limits and the step
/// callout), its step counter and match data. Reuse one for many operations on one thread; it is
/// not thread-safe.
final class RegexMatcher {
    private let context: OpaquePointer
    private let counter: UnsafeMutablePointer<StepCounter>
    private let stepBudget: Int
    private var matchData: OpaquePointer
    private var matchDataPairs: UInt32

    init(limits: RegexLimits = .standard) throws(PCRE2Error) {
        guard let context = pcre2_match_context_create_32(nil) else {
            throw PCRE2Error(PCRE2_ERROR_NOMEMORY, in: "pcre2_match_context_create_32")
        }
        let pairs: UInt32 = 16
        guard let data = pcre2_match_data_create_32(pairs, nil) else {
            pcre2_match_context_free_32(context)
            throw PCRE2Error(PCRE2_ERROR_NOMEMORY, in: "pcre2_match_data_create_32")
        }
        self.context = context
        matchData = data
        matchDataPairs = pairs
        counter = .allocate(capacity: 1)
        counter.initialize(to: StepCounter(budget: limits.stepBudget))
        stepBudget = limits.stepBudget
        pcre2_set_match_limit_32(context, limits.matchLimit)
        pcre2_set_depth_limit_32(context, limits.depthLimit)
        pcre2_set_heap_limit_32(context, limits.heapLimitKiB)
        pcre2_set_callout_32(context, chargeStep, counter)
    }

    deinit {
        pcre2_match_data_free_32(matchData)
        pcre2_match_context_free_32(context)
        counter.deinitialize(count: 1)
        counter.deallocate()
    }

    /// `pcre2_match` calls made so far (how the work grows with a text, for tests).
    private(set) var matchCalls = 0

    /// Steps this operation was granted: its limits' `stepBudget`, or what the answer's pool has
    /// left if that is less.
    private var granted = 0

    /// Starts a new operation: its step budget is whole again, within what the current answer's
    /// `RegexStepPool` has left. Pair with `endOperation()`.
    func beginOperation() {
        counter.pointee.used = 0
        granted = RegexStepPool.current?.take(upTo: stepBudget) ?? stepBudget
        counter.pointee.budget = granted
    }

    /// Ends an operation: the steps it did not use go back to the answer's pool.
    func endOperation() {
        RegexStepPool.current?.giveBack(max(0, granted - counter.pointee.used))
        granted = 0
    }

    /// One `pcre2_match` from `start`; true when it matched, and then `group(_:)` and `groups`
    /// read the match until the next call. `notEmptyAtStart` refuses an empty match at `start`
    /// (Python's rule after an empty match).
    func match(
        _ code: PCRE2Code, _ text: UnsafeBufferPointer<Unicode.Scalar>, from start: Int,
        notEmptyAtStart: Bool = false
    ) throws(PCRE2Error) -> Bool {
        let pairs = UInt32(code.captureCount + 1)
        if pairs > matchDataPairs {
            guard let larger = pcre2_match_data_create_32(pairs, nil) else {
                throw PCRE2Error(PCRE2_ERROR_NOMEMORY, in: "pcre2_match_data_create_32")
            }
            pcre2_match_data_free_32(matchData)
            matchData = larger
            matchDataPairs = pairs
        }
        matchCalls += 1
        matchedPairs = 0
        let options = UInt32(PCRE2_NO_UTF_CHECK) | (notEmptyAtStart ? UInt32(PCRE2_NOTEMPTY_ATSTART) : 0)
        // Unicode.Scalar is a UInt32 of a valid code point: the text is valid UTF-32 as it is.
        let result = text.withMemoryRebound(to: UInt32.self) { units in
            withCodeUnits(units) { pcre2_match_32(code.pointer, $0, $1, start, options, matchData, context) }
        }
        if result == PCRE2_ERROR_NOMATCH { return false }
        guard result > 0 else { throw PCRE2Error(result, in: "pcre2_match_32") }
        matchedPairs = Int(pairs)
        return true
    }

    /// Groups of the last match: how many there are (group 0 included).
    private var matchedPairs = 0

    /// The code-point range of group `index` of the last match; nil when unset.
    func group(_ index: Int) -> Range<Int>? {
        guard index < matchedPairs, let vector = pcre2_get_ovector_pointer_32(matchData) else { return nil }
        let lower = vector[2 * index], upper = vector[2 * index + 1]
        // An unset group is PCRE2_UNSET, ~(size_t)0, at both ends: -1 as Swift imports size_t.
        return lower >= 0 && lower <= upper ? lower..<upper : nil
    }

    /// Every group of the last match, group 0 first.
    var groups: [Range<Int>?] { (0..<matchedPairs).map(group) }
}

/// A set of UTF-32 code units in the shape of PCRE2's start bitmap: one bit per unit below 255,
/// and bit 255 for every unit from 255 up.
struct CodeUnitSet: Sendable, Hashable {
    private var words: SIMD4<UInt64> = .zero

    init() {}

    /// The units of `text`.
    init<C: Sequence>(_ text: C) where C.Element == Unicode.Scalar {
        for c in text { insert(c.value) }
    }

    init(bitmap: UnsafePointer<UInt8>) {
        for byte in 0..<32 where bitmap[byte] != 0 {
            words[byte / 8] |= UInt64(bitmap[byte]) << (8 * UInt64(byte % 8))
        }
    }

    /// `unit` in either case: PCRE2 does not say whether a first or required unit is caseless.
    /// Above ASCII every unit from 128 up is included, as other cases may be anywhere.
    init(anyCaseOf unit: UInt32) {
        if unit >= 0x80 {
            for u in UInt32(0x80)...255 { insert(u) }
            return
        }
        insert(unit)
        if let scalar = Unicode.Scalar(unit), scalar.properties.isAlphabetic {
            insert(PythonText.simpleLower(scalar).value)
            insert(PythonText.simpleUpper(scalar).value)
            insert(0xFF)  // KELVIN SIGN and LONG S fold to k and s
        }
    }

    mutating func insert(_ unit: UInt32) {
        let bit = Int(min(unit, 255))
        words[bit / 64] |= 1 << UInt64(bit % 64)
    }

    mutating func formUnion(_ other: CodeUnitSet) { words |= other.words }

    func intersects(_ other: CodeUnitSet) -> Bool { (words & other.words) != .zero }
}
