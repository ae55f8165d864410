/// What one regex operation (a search, a `findall`, a `sub`) may use; exceeding any of these
/// gives an error verdict, never a trap or a stall.
///
/// PCRE2 applies `matchLimit`, `depthLimit` and `heapLimitKiB` to each start position of each
/// call: its match counter starts again at every start position (measured with PCRE2 10.42:
/// `(a+)+b` over 38,000 characters of `a…ac` ran 46 s without reaching the default limit). The
/// step budget is therefore kept here, over the whole operation, by a callout before every
/// pattern item (PCRE2_AUTO_CALLOUT): each item charges one step plus the distance the match
/// position moved since the previous one, so scans inside an item (`a*+`) are paid for too.
struct RegexLimits: Sendable, Hashable {
    var matchLimit: UInt32 = 10_000_000
    var depthLimit: UInt32 = 1_000_000
    var heapLimitKiB: UInt32 = 256 * 1024
    /// Steps one operation may take: about 1–2 s of matching at worst.
    var stepBudget = 100_000_000

    static let standard = RegexLimits()
}
