/// Thrown when a search used up its step budget.
struct RegexBudgetExceeded: Error, Sendable {}

/// A match: capture slots (start/end pairs, -1 when a group did not take part), in code points.
struct RegexMatch: Sendable, Hashable {
    var slots: [Int]
    var range: Range<Int> { slots[0]..<slots[1] }

    func group(_ index: Int) -> Range<Int>? {
        guard 2 * index + 1 < slots.count else { return nil }
        let start = slots[2 * index], end = slots[2 * index + 1]
        return start >= 0 && end >= start ? start..<end : nil
    }
}

/// Simulates a `RegexProgram` over a text with leftmost-first (Perl/Python) priorities: all
/// threads advance in lock step, one character at a time, so the work is at most
/// (text length × program size) steps whatever the pattern — no backtracking, no blow-up.
/// Every thread step and every closure step is charged to `budget`.
final class PikeVM {
    private let text: UnsafeBufferPointer<Unicode.Scalar>
    var budget: Int

    init(text: UnsafeBufferPointer<Unicode.Scalar>, budget: Int) {
        self.text = text
        self.budget = budget
    }

    private struct ThreadList {
        var dense: [Int32]
        var sparse: [Int32]
        var count = 0
        var slots: [Int]
        let width: Int

        init(size: Int, width: Int) {
            dense = Array(repeating: 0, count: size)
            sparse = Array(repeating: 0, count: size)
            slots = Array(repeating: -1, count: size * width)
            self.width = width
        }

        @inline(__always) func contains(_ pc: Int) -> Bool {
            let d = Int(sparse[pc])
            return d < count && Int(dense[d]) == pc
        }

        @inline(__always) mutating func insert(_ pc: Int) {
            sparse[pc] = Int32(count)
            dense[count] = Int32(pc)
            count += 1
        }
    }

    private struct Frame {
        /// Instruction to explore, or -1: restore `slot` to `value`.
        var pc: Int32
        var slot: Int32 = 0
        var value: Int = 0
    }

    /// The leftmost-first match starting at `start` or later (only at `start` when `anchored`).
    /// An empty match at `rejectEmptyAt` is skipped (how `findall` moves past empty matches).
    func execute(_ program: RegexProgram, from start: Int, anchored: Bool, rejectEmptyAt: Int? = nil) throws(RegexBudgetExceeded) -> (match: RegexMatch, end: Int)? {
        let code = program.instructions
        let size = code.count
        let width = program.slotCount
        let n = text.count
        var current = ThreadList(size: size, width: width)
        var next = ThreadList(size: size, width: width)
        var working = Array(repeating: -1, count: width)
        var stack: [Frame] = []
        var found: (match: RegexMatch, end: Int)?
        var pos = start
        var budget = self.budget
        defer { self.budget = budget }

        func addThread(_ list: inout ThreadList, _ startPC: Int, at position: Int) throws(RegexBudgetExceeded) {
            stack.append(Frame(pc: Int32(startPC)))
            while let frame = stack.popLast() {
                if frame.pc < 0 { working[Int(frame.slot)] = frame.value; continue }
                let pc = Int(frame.pc)
                if list.contains(pc) { continue }
                list.insert(pc)
                budget -= 1
                if budget < 0 { throw RegexBudgetExceeded() }
                let inst = code[pc]
                switch inst.op {
                case .jump: stack.append(Frame(pc: inst.a))
                case .split:
                    stack.append(Frame(pc: inst.b))
                    stack.append(Frame(pc: inst.a))
                case .save:
                    let slot = Int(inst.a)
                    if slot < width {
                        stack.append(Frame(pc: -1, slot: inst.a, value: working[slot]))
                        working[slot] = position
                    }
                    stack.append(Frame(pc: Int32(pc + 1)))
                case .assert:
                    if RegexAssertion(rawValue: inst.a).map({ program.holds($0, at: position, in: text) }) ?? false {
                        stack.append(Frame(pc: Int32(pc + 1)))
                    }
                case .look:
                    if try program.lookHolds(program.looks[Int(inst.a)], at: position, in: text, budget: &budget) {
                        stack.append(Frame(pc: Int32(pc + 1)))
                    }
                case .char, .charCaseless, .charClass, .any, .anyButNewline, .match:
                    let base = pc * width
                    for k in 0..<width { list.slots[base + k] = working[k] }
                }
            }
        }

        while true {
            if found == nil && (!anchored || pos == start) {
                if current.count == 0, !anchored {
                    let filter = program.startFilter
                    while pos <= n && !filter.canStart(at: pos, in: text, program: program) {
                        pos = filter.nextCandidate(after: pos, in: text)
                    }
                    if pos > n { break }
                }
                for k in 0..<width { working[k] = -1 }
                try addThread(&current, 0, at: pos)
            }
            if current.count == 0 { break }
            next.count = 0
            let c: Unicode.Scalar? = pos < n ? text[pos] : nil
            threads: for index in 0..<current.count {
                let pc = Int(current.dense[index])
                let inst = code[pc]
                budget -= 1
                if budget < 0 { throw RegexBudgetExceeded() }
                let advance: Bool
                switch inst.op {
                case .match:
                    let base = pc * width
                    let slots = Array(current.slots[base..<(base + width)])
                    if let reject = rejectEmptyAt, pos == reject, slots[0] == reject { continue threads }
                    found = (RegexMatch(slots: slots), pos)
                    break threads
                case .char:
                    advance = c?.value == UInt32(bitPattern: inst.a)
                case .charCaseless:
                    if let c {
                        advance = PythonText.simpleLower(c).value == UInt32(bitPattern: inst.a)
                            || PythonText.simpleUpper(c).value == UInt32(bitPattern: inst.b)
                    } else {
                        advance = false
                    }
                case .charClass:
                    if let c { advance = program.classes[Int(inst.a)].matches(c) } else { advance = false }
                case .any:
                    advance = c != nil
                case .anyButNewline:
                    advance = c != nil && c != "\n"
                case .split, .jump, .save, .assert, .look:
                    advance = false
                }
                if advance {
                    let base = pc * width
                    for k in 0..<width { working[k] = current.slots[base + k] }
                    try addThread(&next, pc + 1, at: pos + 1)
                }
            }
            swap(&current, &next)
            if pos >= n { break }
            pos += 1
            if anchored && current.count == 0 { break }
        }
        return found
    }
}
