#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Byte-exact search of one UTF-8 text in another.
///
/// Where Foundation is imported, `String.contains(_:)` and `replacingOccurrences(of:with:)` are
/// Foundation's: they convert both texts to UTF-16 and compare with canonical equivalence, which
/// made them a fifth of grading's time (the placeholder test of every check, the echo search of
/// every answer). This compares bytes with `memchr` and `memcmp`. Both texts being valid UTF-8, a match starts
/// and ends on a code-point boundary (a lead byte never equals a continuation byte); texts that
/// are canonically equivalent but spelled differently (a precomposed "é" and "e" with a combining
/// accent) do not match.
public enum LiteralSearch {
    /// True when `needle` occurs in `haystack` (an empty needle always does).
    public static func contains(_ haystack: String, _ needle: String) -> Bool {
        firstOffset(of: needle, in: haystack, from: 0) != nil
    }

    /// `haystack` with every non-overlapping occurrence of `needle` (searched left to right)
    /// replaced by `replacement`; `haystack` itself when `needle` is empty or absent.
    public static func replacingOccurrences(in haystack: String, of needle: String, with replacement: String) -> String {
        guard !needle.isEmpty, var at = firstOffset(of: needle, in: haystack, from: 0) else { return haystack }
        let bytes = Array(haystack.utf8)
        let needleCount = needle.utf8.count
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var copied = 0
        while true {
            result += bytes[copied..<at]
            result += replacement.utf8
            copied = at + needleCount
            guard let next = firstOffset(of: needle, in: haystack, from: copied) else { break }
            at = next
        }
        result += bytes[copied...]
        return String(decoding: result, as: UTF8.self)
    }

    /// The UTF-8 offset of the first occurrence of `needle` in `haystack` at or after `start`.
    public static func firstOffset(of needle: String, in haystack: String, from start: Int) -> Int? {
        var haystack = haystack
        var needle = needle
        haystack.makeContiguousUTF8()
        needle.makeContiguousUTF8()
        return haystack.utf8.withContiguousStorageIfAvailable { hay -> Int? in
            needle.utf8.withContiguousStorageIfAvailable { pin -> Int? in
                guard start <= hay.count else { return nil }
                if pin.isEmpty { return start }
                guard let base = hay.baseAddress, let pinBase = pin.baseAddress else { return nil }
                // memchr for the first byte, memcmp for the rest (Glibc's module does not export memmem).
                let first = Int32(pinBase.pointee)
                var at = start
                while hay.count - at >= pin.count {
                    guard let found = memchr(base + at, first, hay.count - at - pin.count + 1) else { return nil }
                    let offset = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                    if memcmp(base + offset, pinBase, pin.count) == 0 { return offset }
                    at = offset + 1
                }
                return nil
            } ?? nil
        } ?? nil
    }
}
