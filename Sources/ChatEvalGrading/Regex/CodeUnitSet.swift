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
