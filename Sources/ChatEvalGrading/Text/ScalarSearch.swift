/// Substring search over code points in guaranteed linear time (Knuth–Morris–Pratt), so a
/// megabyte answer and an adversarial needle cost the same as any other. The one substring
/// search of grading: checks and Python's `str.split`/`in` use it (a set of phrases is one PCRE2
/// alternation, see `RefusalCheck`). Written
/// here because a literal needle needs no regex engine, and KMP keeps the search linear whatever
/// the needle.
struct ScalarSearch: Sendable {
    let needle: Scalars
    private let failure: [Int]

    init(_ needle: Scalars) {
        self.needle = needle
        var failure = Array(repeating: 0, count: needle.count)
        var k = 0
        var i = 1
        while i < needle.count {
            while k > 0 && needle[i] != needle[k] { k = failure[k - 1] }
            if needle[i] == needle[k] { k += 1 }
            failure[i] = k
            i += 1
        }
        self.failure = failure
    }

    /// Index of the first occurrence in `haystack` at or after `start` (default: its start); an
    /// empty needle is found at `start`.
    func firstIndex<C: RandomAccessCollection>(in haystack: C, from start: Int? = nil) -> Int?
    where C.Element == Unicode.Scalar, C.Index == Int {
        let start = start ?? haystack.startIndex
        let m = needle.count
        guard m > 0 else { return start <= haystack.endIndex ? start : nil }
        guard haystack.endIndex - start >= m else { return nil }
        let first = needle[0]
        var k = 0
        var i = start
        let n = haystack.endIndex
        while i < n {
            if k == 0 {
                // Fast skip to the next possible start.
                while i < n && haystack[i] != first { i += 1 }
                if i == n { return nil }
                k = 1
                i += 1
                if k == m { return i - m }
                continue
            }
            let c = haystack[i]
            while k > 0 && c != needle[k] { k = failure[k - 1] }
            if c == needle[k] { k += 1 }
            i += 1
            if k == m { return i - m }
        }
        return nil
    }
}

extension Scalars {
    /// Each code point mapped by its simple lowercase (one to one, so offsets stay aligned).
    var simpleLowercased: Scalars {
        withUnsafeBufferPointer { source in
            Scalars(unsafeUninitializedCapacity: source.count) { buffer, count in
                for index in source.indices {
                    let c = source[index]
                    // ASCII inline: the property lookups are for the rest.
                    buffer[index] =
                        c.value < 0x80
                        ? (c.value >= 0x41 && c.value <= 0x5A ? unsafeBitCast(c.value + 32, to: Unicode.Scalar.self) : c)
                        : PythonText.simpleLower(c)
                }
                count = source.count
            }
        }
    }
}
