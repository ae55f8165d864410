/// The Punkt model's word types — its abbreviations, sentence starters, first words of
/// collocations and orthographic contexts — in one open-addressed table, looked up by a token's
/// code points lowercased as they are hashed.
///
/// Written here rather than kept in Swift sets: a set of `String` can only be asked about a
/// `String`, so sentence counting made one for every type it looked up and hashed it once per
/// set (over a third of its instructions, measured 2026-11-30). A token is a slice of the answer;
/// this table hashes and compares that slice where it lies. Entries answer exactly what the sets
/// answered (`PunktTypeTableTests` compares every model entry and random tokens).
struct PunktTypeTable: Sendable {
    /// What the model says of one type; a type it does not hold has none of these.
    struct Entry: Sendable, Equatable {
        var isAbbreviation = false
        var isSentenceStarter = false
        var startsCollocation = false
        var orthographicContext = 0
    }

    /// Every type's code points, end to end; `spans[i]` is entry `i`'s.
    private let keys: [Unicode.Scalar]
    private let spans: [Range<Int>]
    private let entries: [Entry]
    /// Entry index + 1 per slot, 0 where empty; a power of two at most half full.
    private let slots: [Int32]
    /// The entry of `##number##`, the type of every numeric token.
    let numberEntry: Entry?

    /// Types with an orthographic context (the model's table has one line per type).
    let orthographicContextCount: Int

    /// The tables as the model lists them; where a type is listed twice in `orthographicContext`,
    /// its first flags count.
    init(
        abbreviations: [String], sentenceStarters: [String], collocationStarts: [String],
        orthographicContext: [(type: String, flags: Int)]
    ) {
        var capacity = 16
        while capacity < 2 * (orthographicContext.count + abbreviations.count + sentenceStarters.count + collocationStarts.count) {
            capacity *= 2
        }
        var table = Builder(capacity: capacity)
        // At most a code point per UTF-8 byte: the types' code points without growing.
        table.keys.reserveCapacity(
            [orthographicContext.map(\.type), abbreviations, sentenceStarters, collocationStarts].joined().reduce(0) { $0 + $1.utf8.count })
        var withContext = 0
        for (type, flags) in orthographicContext {
            let (index, isNew) = table.add(type)
            if isNew {
                table.entries[index].orthographicContext = flags
                withContext += 1
            }
        }
        for type in abbreviations { table.entries[table.add(type).index].isAbbreviation = true }
        for type in sentenceStarters { table.entries[table.add(type).index].isSentenceStarter = true }
        for type in collocationStarts { table.entries[table.add(type).index].startsCollocation = true }
        numberEntry = table.find("##number##").map { table.entries[$0] }
        keys = table.keys
        spans = table.spans
        entries = table.entries
        slots = table.slots
        orthographicContextCount = withContext
    }

    /// The table as it is filled: each type's code points are appended to `keys` once and
    /// hashed there, without a copy of their own.
    private struct Builder {
        var keys: [Unicode.Scalar] = [], spans: [Range<Int>] = [], entries: [Entry] = []
        var slots: [Int32]

        init(capacity: Int) {
            slots = [Int32](repeating: 0, count: capacity)
        }

        /// The slot of the type spelled `keys[key]`: the slot holding it and its entry's index,
        /// or the empty slot where it goes.
        private func slot(of key: Range<Int>) -> (slot: Int, index: Int?) {
            let mask = slots.count - 1
            var slot = PunktTypeTable.hash(keys[key]) & mask
            while slots[slot] != 0 {
                let index = Int(slots[slot]) - 1
                if keys[spans[index]].elementsEqual(keys[key]) { return (slot, index) }
                slot = (slot + 1) & mask
            }
            return (slot, nil)
        }

        /// The index of `type`'s entry, if the table holds it.
        mutating func find(_ type: String) -> Int? {
            let start = keys.count
            for scalar in type.unicodeScalars { keys.append(scalar) }
            defer { keys.removeSubrange(start...) }
            return slot(of: start..<keys.count).index
        }

        /// The index of `type`'s entry, added empty if the table did not hold it (`isNew`).
        mutating func add(_ type: String) -> (index: Int, isNew: Bool) {
            let start = keys.count
            for scalar in type.unicodeScalars { keys.append(scalar) }
            let key = start..<keys.count
            let (slot, found) = slot(of: key)
            if let found {
                keys.removeSubrange(key)
                return (found, false)
            }
            spans.append(key)
            entries.append(Entry())
            slots[slot] = Int32(entries.count)
            return (entries.count - 1, true)
        }
    }

    /// FNV-1a over the code points' values.
    private static func hash<C: Collection>(_ scalars: C) -> Int where C.Element == Unicode.Scalar {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for scalar in scalars { h = (h ^ UInt64(scalar.value)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }

    /// The entry of `PythonText.lowerString(text)`, or nil when the model does not hold that type.
    func entry<C: RandomAccessCollection>(lowercasing text: C) -> Entry? where C.Element == Unicode.Scalar {
        // Code points that lowercase to themselves (CJK, emoji, `é`) need no copy: only a code
        // point that changes, or may depend on its neighbours (Σ), takes Python's `lower`.
        for scalar in text where scalar.value >= 0x80 {
            guard PythonText.isCaselessBlock(scalar.value) || !scalar.properties.changesWhenLowercased else {
                return entry(of: PythonText.lower(Array(text)))
            }
        }
        return entry(of: text.lazy.map(Self.asciiLower))
    }

    private static func asciiLower(_ c: Unicode.Scalar) -> Unicode.Scalar {
        c.value >= 0x41 && c.value <= 0x5A ? Unicode.Scalar(UInt8(truncatingIfNeeded: c.value + 32)) : c
    }

    /// The entry of the type spelled `type`.
    private func entry<C: Collection>(of type: C) -> Entry? where C.Element == Unicode.Scalar {
        let mask = slots.count - 1
        var slot = Self.hash(type) & mask
        while slots[slot] != 0 {
            let index = Int(slots[slot]) - 1
            if keys[spans[index]].elementsEqual(type) { return entries[index] }
            slot = (slot + 1) & mask
        }
        return nil
    }
}
