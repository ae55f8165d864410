/// Bounded backtracking (RE2's "BitState"): a depth-first search over (instruction, position)
/// states that marks each state visited and never explores it twice, so the work is at most
/// (text length × program size) steps — the same bound as the Pike VM — with much lower
/// constant costs on short texts. Preferred branches are explored first, so the first match
/// found is the leftmost-first (Python) match. Used when the visited bitmap is small.
final class BacktrackVM {
    private let text: UnsafeBufferPointer<Unicode.Scalar>
    private let program: RegexProgram
    var budget: Int
    /// One bit per (position, instruction), kept across searches and cleared where dirtied.
    private var visited: [UInt64]
    private var dirtyPositions: ClosedRange<Int>?
    private var slots: [Int]
    private var jobs: [Job] = []

    /// Largest bitmap (instructions × positions) this engine takes on.
    static let maximumStates = 1 << 21

    static func fits(_ program: RegexProgram, textLength: Int) -> Bool {
        program.instructions.count * (textLength + 1) <= maximumStates
    }

    init(program: RegexProgram, text: UnsafeBufferPointer<Unicode.Scalar>, budget: Int) {
        self.text = text
        self.program = program
        self.budget = budget
        visited = [UInt64](repeating: 0, count: (program.instructions.count * (text.count + 1) + 63) / 64)
        slots = [Int](repeating: -1, count: program.slotCount)
    }

    private func clearVisited() {
        guard let dirty = dirtyPositions else { return }
        let size = program.instructions.count
        let first = (dirty.lowerBound * size) >> 6
        let last = min(visited.count - 1, ((dirty.upperBound + 1) * size) >> 6)
        if first <= last { for k in first...last { visited[k] = 0 } }
        dirtyPositions = nil
    }

    private struct Job {
        /// Instruction to explore, or -1: restore `slot` to `position`.
        var pc: Int32
        var slot: Int32
        var position: Int
    }

    func execute(from start: Int, anchored: Bool, rejectEmptyAt: Int? = nil) throws(RegexBudgetExceeded) -> (match: RegexMatch, end: Int)? {
        clearVisited()
        // Work on local copies (moved out, so still uniquely referenced): mutating class
        // properties in the hot loop would pay dynamic exclusivity checks.
        var visited = self.visited, slots = self.slots, jobs = self.jobs, budget = self.budget
        self.visited = []
        self.slots = []
        self.jobs = []
        var highest = start
        defer {
            self.visited = visited
            self.slots = slots
            self.jobs = jobs
            self.budget = budget
            dirtyPositions = start...highest
        }
        let filter = program.startFilter
        let n = text.count
        let program = self.program
        let text = self.text
        return try visited.withUnsafeMutableBufferPointer { visitedBits throws(RegexBudgetExceeded) in
            try slots.withUnsafeMutableBufferPointer { slotBuffer throws(RegexBudgetExceeded) in
                try program.instructions.withUnsafeBufferPointer { code throws(RegexBudgetExceeded) in
                    try program.classes.withUnsafeBufferPointer { classes throws(RegexBudgetExceeded) in
                        var p = start
                        while p <= n {
                            if anchored && p != start { break }
                            if anchored || filter.canStart(at: p, in: text, program: program) {
                                for k in slotBuffer.indices { slotBuffer[k] = -1 }
                                jobs.removeAll(keepingCapacity: true)
                                if let end = try Self.attempt(from: p, rejectEmpty: rejectEmptyAt == p, program: program, text: text,
                                                              code: code, classes: classes, visited: visitedBits, slots: slotBuffer,
                                                              jobs: &jobs, budget: &budget, highest: &highest) {
                                    return (RegexMatch(slots: Array(slotBuffer)), end)
                                }
                                if rejectEmptyAt == p {
                                    // States that failed only because an empty match was refused here may succeed from later starts.
                                    for k in visitedBits.indices { visitedBits[k] = 0 }
                                }
                            }
                            p = anchored ? n + 1 : filter.nextCandidate(after: p, in: text)
                        }
                        return nil
                    }
                }
            }
        }
    }

    /// Depth-first search from `p`; returns the match end (captures left in `slots`) or nil.
    private static func attempt(from p: Int, rejectEmpty: Bool, program: RegexProgram, text: UnsafeBufferPointer<Unicode.Scalar>,
                                code: UnsafeBufferPointer<RegexInstruction>, classes: UnsafeBufferPointer<CharClass>,
                                visited: UnsafeMutableBufferPointer<UInt64>, slots: UnsafeMutableBufferPointer<Int>,
                                jobs: inout [Job], budget: inout Int, highest: inout Int) throws(RegexBudgetExceeded) -> Int? {
        let n = text.count
        let width = slots.count
                let size = code.count
                jobs.append(Job(pc: 0, slot: 0, position: p))
                while let job = jobs.popLast() {
                    if job.pc < 0 { slots[Int(job.slot)] = job.position; continue }
                    var pc = Int(job.pc)
                    var pos = job.position
                    explore: while true {
                        if pos > highest { highest = pos }
                        let bit = pos &* size &+ pc
                        let word = bit &>> 6, mask = UInt64(1) &<< UInt64(bit & 63)
                        if visited[word] & mask != 0 { break explore }
                        visited[word] |= mask
                        budget &-= 1
                        if budget < 0 { throw RegexBudgetExceeded() }
                        let inst = code[pc]
                        switch inst.op {
                        case .char:
                            guard pos < n, text[pos].value == UInt32(bitPattern: inst.a) else { break explore }
                            pc &+= 1; pos &+= 1
                        case .charCaseless:
                            guard pos < n else { break explore }
                            let c = text[pos]
                            guard c.value == UInt32(bitPattern: inst.a)
                                    || PythonText.simpleLower(c).value == UInt32(bitPattern: inst.a)
                                    || PythonText.simpleUpper(c).value == UInt32(bitPattern: inst.b) else { break explore }
                            pc &+= 1; pos &+= 1
                        case .charClass:
                            guard pos < n, classes[Int(inst.a)].matches(text[pos]) else { break explore }
                            pc &+= 1; pos &+= 1
                        case .any:
                            guard pos < n else { break explore }
                            pc &+= 1; pos &+= 1
                        case .anyButNewline:
                            guard pos < n, text[pos] != "\n" else { break explore }
                            pc &+= 1; pos &+= 1
                        case .split:
                            jobs.append(Job(pc: inst.b, slot: 0, position: pos))
                            pc = Int(inst.a)
                        case .jump:
                            pc = Int(inst.a)
                        case .save:
                            let slot = Int(inst.a)
                            if slot < width {
                                jobs.append(Job(pc: -1, slot: inst.a, position: slots[slot]))
                                slots[slot] = pos
                            }
                            pc &+= 1
                        case .assert:
                            guard RegexAssertion(rawValue: inst.a).map({ program.holds($0, at: pos, in: text) }) ?? false else { break explore }
                            pc &+= 1
                        case .look:
                            guard try program.lookHolds(program.looks[Int(inst.a)], at: pos, in: text, budget: &budget) else { break explore }
                            pc &+= 1
                        case .match:
                            if rejectEmpty && pos == p { break explore }
                            return pos
                        }
                    }
                }
                return nil
    }
}
