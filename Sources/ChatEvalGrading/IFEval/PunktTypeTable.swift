/// The Punkt model's word types — its abbreviations, sentence starters, first words of
/// collocations and orthographic contexts — in one open-addressed table, looked up by a token's
/// code points lowercased as they are hashed.
///
/// Written here rather than kept in Swift sets: a set of `String` can only be asked about a
/// `String`, so sentence counting made one for every type it looked up and hashed it once per
/// set (over a third of its instructions, measured 2026-11-30). A token is a slice of the answer;
/// this table hashes and compares that slice where it lies.
///
/// It answers exactly what those sets answered, which compared Strings by canonical equivalence
/// (`GradingFastPathTests`): a type written in ASCII, or in ASCII and the three code points
/// canonically equivalent to ASCII ones (`asASCII`), is keyed by its ASCII spelling, which is then
/// the only spelling equivalent to it; any other type (none in the English model) is kept in a
/// dictionary of Strings, the sets' own comparison.
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
    /// Types that are not ASCII once `asASCII` is applied, compared as Strings.
    private let otherTypes: [String: Entry]
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
        var otherTypes: [String: Entry] = [:]
        /// Applies `change` to `type`'s entry (in the table, or among the other types), saying
        /// whether the entry is new.
        func update(_ type: String, _ change: (inout Entry, _ isNew: Bool) -> Void) {
            if let (index, isNew) = table.add(type) { return change(&table.entries[index], isNew) }
            let isNew = otherTypes[type] == nil
            change(&otherTypes[type, default: Entry()], isNew)
        }
        var withContext = 0
        for (type, flags) in orthographicContext {
            update(type) { entry, isNew in
                // A type listed twice keeps its first flags, as the dictionary the model was read into did.
                guard isNew else { return }
                entry.orthographicContext = flags
                withContext += 1
            }
        }
        for type in abbreviations { update(type) { entry, _ in entry.isAbbreviation = true } }
        for type in sentenceStarters { update(type) { entry, _ in entry.isSentenceStarter = true } }
        for type in collocationStarts { update(type) { entry, _ in entry.startsCollocation = true } }
        numberEntry = table.find("##number##").map { table.entries[$0] }
        keys = table.keys
        spans = table.spans
        entries = table.entries
        slots = table.slots
        self.otherTypes = otherTypes
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
            guard appendASCII(type) else { return nil }
            defer { keys.removeSubrange(start...) }
            return slot(of: start..<keys.count).index
        }

        /// Appends `type`'s ASCII spelling to `keys`; false, appending nothing, when it has none.
        private mutating func appendASCII(_ type: String) -> Bool {
            // Every type of the English model is ASCII: its bytes are its code points.
            let appendedBytes = type.utf8.withContiguousStorageIfAvailable { bytes in
                guard !bytes.contains(where: { $0 >= 0x80 }) else { return false }
                keys.append(contentsOf: bytes.lazy.map { Unicode.Scalar($0) })
                return true
            }
            if appendedBytes == true { return true }
            guard type.unicodeScalars.allSatisfy(PunktTypeTable.isASCIIEquivalent) else { return false }
            for scalar in type.unicodeScalars { keys.append(PunktTypeTable.asASCII(scalar)) }
            return true
        }

        /// The index of `type`'s entry, added empty if the table did not hold it (`isNew`); nil
        /// for a type with no ASCII spelling, which the table does not hold.
        mutating func add(_ type: String) -> (index: Int, isNew: Bool)? {
            let start = keys.count
            guard appendASCII(type) else { return nil }
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
        var hasASCIISpelling = true
        for scalar in text where scalar.value >= 0x80 {
            guard PythonText.isCaselessBlock(scalar.value) || !scalar.properties.changesWhenLowercased else {
                return entry(ofLowercase: PythonText.lower(Array(text)))
            }
            if !Self.isASCIIEquivalent(scalar) { hasASCIISpelling = false }
        }
        guard hasASCIISpelling else { return otherTypes.isEmpty ? nil : otherTypes[String(scalars: text.lazy.map(Self.asciiLower))] }
        return entry(of: text.lazy.map { Self.asASCII(Self.asciiLower($0)) })
    }

    /// The entry of the type `lowercase` (already lowercased).
    private func entry(ofLowercase lowercase: Scalars) -> Entry? {
        guard lowercase.allSatisfy(Self.isASCIIEquivalent) else {
            return otherTypes.isEmpty ? nil : otherTypes[String(scalars: lowercase)]
        }
        return entry(of: lowercase.lazy.map(Self.asASCII))
    }

    private static func asciiLower(_ c: Unicode.Scalar) -> Unicode.Scalar {
        c.value >= 0x41 && c.value <= 0x5A ? Unicode.Scalar(UInt8(truncatingIfNeeded: c.value + 32)) : c
    }

    /// True for ASCII and for the only code points outside it whose canonical decomposition is
    /// ASCII: GREEK QUESTION MARK (`;`), GREEK VARIA (`` ` ``) and KELVIN SIGN (`K`) —
    /// `GradingFastPathTests` checks every code point. A String holding any other is never
    /// canonically equivalent to an ASCII one.
    static func isASCIIEquivalent(_ c: Unicode.Scalar) -> Bool {
        c.value < 0x80 || c.value == 0x037E || c.value == 0x1FEF || c.value == 0x212A
    }

    /// `c` as the ASCII character it is canonically equivalent to, or itself.
    static func asASCII(_ c: Unicode.Scalar) -> Unicode.Scalar {
        switch c.value {
        case 0x037E: ";"
        case 0x1FEF: "`"
        case 0x212A: "K"
        default: c
        }
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
