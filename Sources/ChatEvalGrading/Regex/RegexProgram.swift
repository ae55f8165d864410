/// A compiled regex: instructions for the Pike VM (Thompson NFA simulation with captures).
struct RegexInstruction: Sendable {
    enum Op: UInt8, Sendable {
        /// Consume `a` exactly.
        case char
        /// Consume a character whose simple lowercase is `a` or whose simple uppercase is `b`.
        case charCaseless
        /// Consume a character of class `classes[a]`.
        case charClass
        /// Consume any character but `\n`.
        case anyButNewline
        /// Consume any character.
        case any
        /// Continue at `a` (preferred) and at `b`.
        case split
        case jump
        /// Record the position in capture slot `a`.
        case save
        /// Continue only where `RegexAssertion(rawValue: a)` holds.
        case assert
        /// Continue only where look-around `looks[a]` holds.
        case look
        case match
    }

    var op: Op
    var a: Int32 = 0
    var b: Int32 = 0
}

struct LookAround: Sendable {
    var program: RegexProgram
    var ahead: Bool
    var negated: Bool
    var width: Int
}

final class RegexProgram: Sendable {
    let instructions: [RegexInstruction]
    let classes: [CharClass]
    let looks: [LookAround]
    let slotCount: Int
    /// Where a match can start, so searches skip hopeless positions quickly.
    let startFilter: StartFilter

    init(instructions: [RegexInstruction], classes: [CharClass], looks: [LookAround], slotCount: Int) {
        self.instructions = instructions
        self.classes = classes
        self.looks = looks
        self.slotCount = slotCount
        self.startFilter = StartFilter(instructions).resolved(classes)
    }

    /// Whether a zero-width assertion holds at `p` (Python's definitions).
    func holds(_ assertion: RegexAssertion, at p: Int, in text: UnsafeBufferPointer<Unicode.Scalar>) -> Bool {
        let n = text.count
        func isWord(_ i: Int) -> Bool { i >= 0 && i < n && PythonText.isWord(text[i]) }
        switch assertion {
        case .lineStart, .textStart: return p == 0
        case .lineStartMultiline: return p == 0 || text[p - 1] == "\n"
        case .lineEnd: return p == n || (p == n - 1 && text[p] == "\n")
        case .lineEndMultiline: return p == n || text[p] == "\n"
        case .textEnd: return p == n
        case .wordBoundary: return isWord(p - 1) != isWord(p)
        case .notWordBoundary: return n > 0 && isWord(p - 1) == isWord(p)
        case .moduleWordBoundary, .notModuleWordBoundary:
            func isModuleWord(_ i: Int) -> Bool { i >= 0 && i < n && PythonText.isModuleWord(text[i]) }
            let boundary = isModuleWord(p - 1) != isModuleWord(p)
            return assertion == .moduleWordBoundary ? boundary : n > 0 && !boundary
        }
    }

    /// Whether a look-around holds at `p` (its sub-program run anchored, sharing the budget).
    func lookHolds(_ look: LookAround, at p: Int, in text: UnsafeBufferPointer<Unicode.Scalar>, budget: inout Int) throws(RegexBudgetExceeded) -> Bool {
        let matched: Bool
        if look.ahead {
            matched = try RegexEngine.run(look.program, text, from: p, anchored: true, budget: &budget) != nil
        } else if p - look.width < 0 {
            matched = false
        } else {
            matched = try RegexEngine.run(look.program, text, from: p - look.width, anchored: true, budget: &budget)?.end == p
        }
        return matched != look.negated
    }
}

/// Picks the engine for one search: bounded backtracking when its bitmap is small, else the Pike VM.
enum RegexEngine {
    static func run(_ program: RegexProgram, _ text: UnsafeBufferPointer<Unicode.Scalar>, from start: Int, anchored: Bool,
                    rejectEmptyAt: Int? = nil, budget: inout Int) throws(RegexBudgetExceeded) -> (match: RegexMatch, end: Int)? {
        let searcher = RegexSearcher(program, text, budget: budget)
        defer { budget = searcher.budget }
        return try searcher.search(from: start, anchored: anchored, rejectEmptyAt: rejectEmptyAt)
    }
}

/// Successive searches of one program over one text, reusing the engine's buffers: bounded
/// backtracking when its bitmap is small, else the Pike VM.
final class RegexSearcher {
    private let backtracker: BacktrackVM?
    private let pike: PikeVM?
    private let program: RegexProgram

    init(_ program: RegexProgram, _ text: UnsafeBufferPointer<Unicode.Scalar>, budget: Int) {
        self.program = program
        if BacktrackVM.fits(program, textLength: text.count) {
            backtracker = BacktrackVM(program: program, text: text, budget: budget)
            pike = nil
        } else {
            backtracker = nil
            pike = PikeVM(text: text, budget: budget)
        }
    }

    var budget: Int { backtracker?.budget ?? pike?.budget ?? 0 }

    func search(from start: Int, anchored: Bool, rejectEmptyAt: Int? = nil) throws(RegexBudgetExceeded) -> (match: RegexMatch, end: Int)? {
        if let backtracker {
            return try backtracker.execute(from: start, anchored: anchored, rejectEmptyAt: rejectEmptyAt)
        }
        return try pike?.execute(program, from: start, anchored: anchored, rejectEmptyAt: rejectEmptyAt)
    }
}

/// Necessary conditions for a match to start at a position: a leading `^`/`\A`, and the
/// instructions that can consume the first character (none when a match can be empty).
struct StartFilter: Sendable {
    let anchor: RegexAssertion?
    let firstConsumers: [RegexInstruction]?
    /// For ASCII characters: whether one can start a match (when `firstConsumers` is known).
    let asciiStart: [Bool]?
    /// Whether some non-ASCII character might start a match.
    let nonASCIIStart: Bool

    init(_ code: [RegexInstruction]) {
        var pc = 0
        while pc < code.count && code[pc].op == .save { pc += 1 }
        if pc < code.count, code[pc].op == .assert, let kind = RegexAssertion(rawValue: code[pc].a),
           kind == .lineStart || kind == .textStart || kind == .lineStartMultiline {
            anchor = kind
        } else {
            anchor = nil
        }
        var seen = Set<Int>()
        var stack = [0]
        var consumers: [RegexInstruction]? = []
        explore: while let at = stack.popLast() {
            guard seen.insert(at).inserted else { continue }
            let inst = code[at]
            switch inst.op {
            case .split: stack.append(Int(inst.a)); stack.append(Int(inst.b))
            case .jump: stack.append(Int(inst.a))
            case .save, .assert, .look: stack.append(at + 1)
            case .match: consumers = nil; break explore
            case .char, .charCaseless, .charClass, .any, .anyButNewline: consumers?.append(inst)
            }
            if (consumers?.count ?? 0) > 16 { consumers = nil; break explore }
        }
        firstConsumers = consumers
        guard let consumers else {
            asciiStart = nil
            nonASCIIStart = true
            return
        }
        var table = [Bool](repeating: false, count: 128)
        var nonASCII = false
        for inst in consumers {
            switch inst.op {
            case .char:
                let v = UInt32(bitPattern: inst.a)
                if v < 128 { table[Int(v)] = true } else { nonASCII = true }
            case .charCaseless:
                // Non-ASCII characters can fold to ASCII letters (K, ſ, İ...).
                for v in [UInt32(bitPattern: inst.a), UInt32(bitPattern: inst.b)] {
                    if v < 128 { table[Int(v)] = true } else { nonASCII = true }
                }
                nonASCII = true
            case .any, .anyButNewline, .charClass:
                nonASCII = true
                for v in 0..<128 where !table[v] {
                    let c = Unicode.Scalar(UInt8(v))
                    switch inst.op {
                    case .any: table[v] = true
                    case .anyButNewline: table[v] = c != "\n"
                    default: table[v] = false
                    }
                }
            default: break
            }
        }
        asciiStart = table
        nonASCIIStart = nonASCII
    }

    /// Completes the ASCII table with character classes (needs the program's classes).
    func resolved(_ classes: [CharClass]) -> StartFilter {
        guard let firstConsumers, var table = asciiStart else { return self }
        for inst in firstConsumers where inst.op == .charClass {
            let set = classes[Int(inst.a)]
            for v in 0..<128 where !table[v] && set.matches(Unicode.Scalar(UInt8(v))) { table[v] = true }
        }
        return StartFilter(anchor: anchor, firstConsumers: firstConsumers, asciiStart: table, nonASCIIStart: nonASCIIStart)
    }

    private init(anchor: RegexAssertion?, firstConsumers: [RegexInstruction]?, asciiStart: [Bool]?, nonASCIIStart: Bool) {
        self.anchor = anchor
        self.firstConsumers = firstConsumers
        self.asciiStart = asciiStart
        self.nonASCIIStart = nonASCIIStart
    }

    func canStart(at p: Int, in text: UnsafeBufferPointer<Unicode.Scalar>, program: RegexProgram) -> Bool {
        if let anchor, !program.holds(anchor, at: p, in: text) { return false }
        guard let firstConsumers else { return true }
        guard p < text.count else { return false }
        let c = text[p]
        if c.value < 128, let asciiStart { return asciiStart[Int(c.value)] }
        for inst in firstConsumers {
            switch inst.op {
            case .char: if c.value == UInt32(bitPattern: inst.a) { return true }
            case .charCaseless:
                if PythonText.simpleLower(c).value == UInt32(bitPattern: inst.a) || PythonText.simpleUpper(c).value == UInt32(bitPattern: inst.b) { return true }
            case .charClass: if program.classes[Int(inst.a)].matches(c) { return true }
            case .any: return true
            case .anyButNewline: if c != "\n" { return true }
            default: return true
            }
        }
        return false
    }

    /// The next position after `p` worth trying (past the end when none is).
    func nextCandidate(after p: Int, in text: UnsafeBufferPointer<Unicode.Scalar>) -> Int {
        let n = text.count
        switch anchor {
        case .lineStart?, .textStart?: return n + 1
        case .lineStartMultiline?:
            var q = p
            while q < n && text[q] != "\n" { q += 1 }
            return q + 1
        default:
            guard let asciiStart else { return p + 1 }
            var q = p + 1
            while q < n {
                let v = text[q].value
                if v < 128 ? asciiStart[Int(v)] : nonASCIIStart { return q }
                q += 1
            }
            return n + 1
        }
    }
}

/// Turns a parsed regex into Pike VM instructions.
struct RegexCompiler {
    private var code: [RegexInstruction] = []
    private var classes: [CharClass] = []
    private var looks: [LookAround] = []
    private let limit: Int

    /// Largest program accepted (counted repetitions are expanded).
    static let defaultInstructionLimit = 20_000

    static func compile(_ parsed: ParsedRegex, instructionLimit: Int = defaultInstructionLimit) throws(RegexSyntaxError) -> RegexProgram {
        var compiler = RegexCompiler(limit: instructionLimit)
        try compiler.emit(.save, a: 0)
        try compiler.compile(parsed.root)
        try compiler.emit(.save, a: 1)
        try compiler.emit(.match)
        return RegexProgram(instructions: compiler.code, classes: compiler.classes, looks: compiler.looks,
                            slotCount: 2 * (parsed.groupCount + 1))
    }

    private init(limit: Int) { self.limit = limit }

    @discardableResult
    private mutating func emit(_ op: RegexInstruction.Op, a: Int32 = 0, b: Int32 = 0) throws(RegexSyntaxError) -> Int {
        guard code.count < limit else {
            throw RegexSyntaxError(message: "pattern too large (more than \(limit) instructions once repetitions are expanded)", offset: 0)
        }
        code.append(RegexInstruction(op: op, a: a, b: b))
        return code.count - 1
    }

    private mutating func compile(_ node: RegexNode) throws(RegexSyntaxError) {
        switch node {
        case .empty: break
        case .literal(let c, let caseless):
            if caseless {
                try emit(.charCaseless, a: Int32(bitPattern: c.value), b: Int32(bitPattern: PythonText.simpleUpper(c).value))
            } else {
                try emit(.char, a: Int32(bitPattern: c.value))
            }
        case .any(let dotAll): try emit(dotAll ? .any : .anyButNewline)
        case .set(let set):
            classes.append(set)
            try emit(.charClass, a: Int32(classes.count - 1))
        case .assertion(let kind): try emit(.assert, a: kind.rawValue)
        case .group(let body, let capture):
            if let capture { try emit(.save, a: Int32(2 * capture)) }
            try compile(body)
            if let capture { try emit(.save, a: Int32(2 * capture + 1)) }
        case .concat(let nodes):
            for n in nodes { try compile(n) }
        case .alternation(let branches):
            var jumps: [Int] = []
            for (k, branch) in branches.enumerated() {
                if k < branches.count - 1 {
                    let split = try emit(.split)
                    code[split].a = Int32(code.count)
                    try compile(branch)
                    jumps.append(try emit(.jump))
                    code[split].b = Int32(code.count)
                } else {
                    try compile(branch)
                }
            }
            for j in jumps { code[j].a = Int32(code.count) }
        case .repetition(let body, let min, let max, let greedy):
            for _ in 0..<min { try compile(body) }
            if let max {
                // Nested optionals: (x(x(x)?)?)?
                var splits: [Int] = []
                for _ in min..<max {
                    splits.append(try emit(.split))
                    try compile(body)
                }
                let end = Int32(code.count)
                for s in splits { try setSplit(s, body: Int32(s + 1), exit: end, greedy: greedy) }
            } else {
                let loop = try emit(.split)
                try compile(body)
                try emit(.jump, a: Int32(loop))
                try setSplit(loop, body: Int32(loop + 1), exit: Int32(code.count), greedy: greedy)
            }
        case .look(let body, let ahead, let negated):
            var sub = RegexCompiler(limit: limit)
            try sub.compile(body)
            try sub.emit(.match)
            let program = RegexProgram(instructions: sub.code, classes: sub.classes, looks: sub.looks, slotCount: 2)
            looks.append(LookAround(program: program, ahead: ahead, negated: negated, width: body.fixedWidth ?? 0))
            try emit(.look, a: Int32(looks.count - 1))
        }
    }

    private mutating func setSplit(_ at: Int, body: Int32, exit: Int32, greedy: Bool) throws(RegexSyntaxError) {
        code[at].a = greedy ? body : exit
        code[at].b = greedy ? exit : body
    }
}
