/// One match: the code-point ranges of the whole match (group 0) and of each group.
struct RegexMatch: Sendable, Hashable {
    let groups: [Range<Int>?]
    var range: Range<Int> { groups[0] ?? 0..<0 }

    func group(_ index: Int) -> Range<Int>? { index < groups.count ? groups[index] : nil }
}
