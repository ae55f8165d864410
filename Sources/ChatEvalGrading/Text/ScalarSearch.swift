/// Substring search over code points in guaranteed linear time (Knuth–Morris–Pratt), so a
/// megabyte answer and an adversarial needle cost the same as any other.
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

    /// Offset of the first occurrence in `haystack` at or after `start`; an empty needle is found at `start`.
    func firstIndex(in haystack: Scalars, from start: Int = 0) -> Int? {
        let m = needle.count
        guard m > 0 else { return start <= haystack.count ? start : nil }
        guard haystack.count - start >= m else { return nil }
        let first = needle[0]
        var k = 0
        var i = start
        let n = haystack.count
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

    /// Non-overlapping occurrences, as Python's `str.count` counts them.
    func count(in haystack: Scalars) -> Int {
        guard !needle.isEmpty else { return haystack.count + 1 }
        var total = 0
        var position = 0
        while let found = firstIndex(in: haystack, from: position) {
            total += 1
            position = found + needle.count
        }
        return total
    }
}

extension Scalars {
    /// Each code point mapped by its simple lowercase (one to one, so offsets stay aligned).
    var simpleLowercased: Scalars { map(PythonText.simpleLower) }
}
