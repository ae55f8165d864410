internal import CPCRE2

/// Runs patterns under `RegexLimits`: owns a PCRE2 match context (the limits and the step
/// callout), its step counter and match data. Reuse one for many operations on one thread; it is
/// not thread-safe.
///
/// A step-counted pattern with a JIT-compiled copy (made once it is in use: `PCRE2Code`) runs
/// first as JIT code, which calls the same step callout three times as fast as the interpreter
/// (`\b\d+(\.\d+)?%` on 370 characters: 5.3 against 17.3 µs, 381 steps each), within a small
/// allowance of steps (`jitAllowance`). A JIT call that matches or finds no match within it gives
/// the interpreter's answer:
/// - the same match: PCRE2 runs one pattern semantics on both engines, and `RegexEngineTests`
///   holds both to Python on 3,000 cases;
/// - the same steps: auto-callouts come before the same items in the same order, and the same
///   tests compare the counts. Anchored patterns, and calls with more than `jitSearchLimit` code
///   points left, whose start positions the engines skip differently, stay in the interpreter;
/// - none of the interpreter's limits could have been reached in so few steps
///   (`jitAllowance(for:)`).
///
/// Any other outcome — the allowance spent, a JIT-only limit (its stack, its own match
/// counting) — is not used: the call runs again in the interpreter, charged as if the JIT had not
/// run, so every limit and error is exactly the interpreter's.
final class RegexMatcher {
    private let context: OpaquePointer
    private let counter: UnsafeMutablePointer<StepCounter>
    private let limits: RegexLimits
    /// False to run every step-counted call in the interpreter (tests comparing the two engines).
    private let triesJIT: Bool
    private var matchData: OpaquePointer
    private var matchDataPairs: UInt32

    /// Steps a step-counted call may take as JIT code before the interpreter takes it over: about
    /// 1.5 ms of JIT matching, a thousandth of the standard step budget.
    static let jitAllowance = 100_000
    /// The longest rest of a text (in code points) a call runs as JIT code.
    static let jitSearchLimit = 200_000

    init(limits: RegexLimits = .standard, triesJIT: Bool = true) throws(PCRE2Error) {
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
        self.limits = limits
        self.triesJIT = triesJIT
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
        granted = RegexStepPool.current?.take(upTo: limits.stepBudget) ?? limits.stepBudget
        counter.pointee.budget = granted
    }

    /// Ends an operation: the steps it did not use go back to the answer's pool.
    func endOperation() {
        RegexStepPool.current?.giveBack(max(0, granted - counter.pointee.used))
        granted = 0
    }

    /// Steps the current operation has charged so far.
    var stepsUsed: Int { counter.pointee.used }

    /// Calls that the JIT answered, and calls it handed to the interpreter (for tests).
    private(set) var jitAnswered = 0, jitHandedOver = 0

    /// The steps `code` may take as JIT code under these limits, 0 when it must not run there
    /// (a pattern that may not run there at all has no JIT copy: `PCRE2Code.jitPointer`).
    /// The interpreter's limits grow about as its steps do: its backtracking frames (depth, match
    /// count, frame heap) are made as it enters pattern items, each of which charges a step first
    /// (a repeated group of alternatives makes two frames between callouts, which its other
    /// items' steps make up for). An allowance of half of each limit leaves room for that.
    func jitAllowance(for code: PCRE2Code) -> Int {
        guard triesJIT else { return 0 }
        let heapFrames = Int(limits.heapLimitKiB) * 1024 / max(1, 2 * code.interpreterFrameBytes)
        return min(Self.jitAllowance, Int(limits.matchLimit) / 2, Int(limits.depthLimit) / 2, heapFrames)
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
        func run(_ compiled: OpaquePointer, _ options: UInt32) -> Int32 {
            counter.pointee.lastStart = -1
            return text.withMemoryRebound(to: UInt32.self) { units in
                withCodeUnits(units) { pcre2_match_32(compiled, $0, $1, start, options, matchData, context) }
            }
        }
        var result: Int32
        // Past `jitSearchLimit` code points the two engines skip a text that lacks a unit every
        // match needs differently (PCRE2 10.42: the interpreter looks for it up to 2,000,000
        // code points ahead, JIT code up to 200,000), and so charge different steps.
        if text.count - start <= Self.jitSearchLimit, let jitCode = code.jitPointer(), case let allowance = jitAllowance(for: code),
            allowance > 0
        {
            let (used, budget) = (counter.pointee.used, counter.pointee.budget)
            counter.pointee.budget = min(budget, used + allowance)
            counter.pointee.jit = true
            result = run(jitCode, options)
            counter.pointee.jit = false
            counter.pointee.budget = budget
            if result > 0 || result == PCRE2_ERROR_NOMATCH {
                jitAnswered += 1
            } else {
                if result == PCRE2_ERROR_JIT_STACKLIMIT { code.jitStackRanOut() }
                jitHandedOver += 1
                counter.pointee.used = used
                result = run(code.pointer, options)
            }
        } else {
            // A step-counted pattern's own code has no JIT code; a linear-time one's runs as such.
            result = run(code.pointer, options)
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

/// The step counter one operation charges from the callout (see `RegexLimits`).
private struct StepCounter {
    var used = 0
    var budget = 0
    /// Where the previous callout of the current start position was.
    var position = 0
    /// True while JIT code runs: it sets no callout flags, so a new start position is seen as a
    /// change of `start_match` (the interpreter flags it, at the same callout).
    var jit = false
    /// `start_match` at the previous callout of this call; -1 before the first.
    var lastStart = -1
}

/// Called by PCRE2 before every item of a step-counted pattern.
private let chargeStep: @convention(c) (UnsafeMutablePointer<pcre2_callout_block_32>?, UnsafeMutableRawPointer?) -> Int32 = { block, data in
    guard let block, let counter = data?.assumingMemoryBound(to: StepCounter.self) else { return 0 }
    let position = block.pointee.current_position
    let startsAnew =
        counter.pointee.jit
        ? block.pointee.start_match != counter.pointee.lastStart
        : block.pointee.callout_flags & UInt32(PCRE2_CALLOUT_STARTMATCH) != 0
    counter.pointee.lastStart = block.pointee.start_match
    if startsAnew {
        counter.pointee.position = block.pointee.start_match
    }
    let moved = position >= counter.pointee.position ? position - counter.pointee.position : counter.pointee.position - position
    counter.pointee.position = position
    counter.pointee.used += 1 + moved
    return counter.pointee.used > counter.pointee.budget ? PCRE2_ERROR_CALLOUT : 0
}
