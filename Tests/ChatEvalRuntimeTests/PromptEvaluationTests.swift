import ChatEvalRuntime
import Testing

/// The record of which engine calls hold a cache's positions, as a session appends to it and
/// trims it.
@Suite struct PromptEvaluationTests {
    @Test func callsFollowOnFromPositionZero() {
        var evaluation = PromptEvaluation()
        evaluation.append([1, 2, 3])
        evaluation.append([4])
        #expect(evaluation.calls.map(\.start) == [0, 3])
        #expect(evaluation.heldCount == 4 && evaluation.heldTokens == [1, 2, 3, 4])
    }

    /// A trim inside a call keeps the call's tokens (a replay evaluates it whole) and holds fewer;
    /// a trim at a call's start drops it; a trim past the end changes nothing.
    @Test(arguments: [(5, [3, 1], 4), (4, [3, 1], 4), (2, [2], 2), (3, [3], 3), (0, [], 0)])
    func keepingBeforeAPositionCutsOrDropsCalls(_ position: Int, _ held: [Int], _ count: Int) {
        var evaluation = PromptEvaluation()
        evaluation.append([1, 2, 3])
        evaluation.append([4])
        evaluation.keep(before: position)
        #expect(evaluation.calls.map(\.held) == held)
        #expect(evaluation.heldCount == count)
        #expect(evaluation.heldTokens == Array([1, 2, 3, 4].prefix(count)))
        if position == 2 { #expect(evaluation.calls[0].tokens == [1, 2, 3], "a cut call keeps its tokens") }
    }

    @Test func aPrefixIsEveryCallUnchanged() {
        var first = PromptEvaluation()
        first.append([1, 2, 3])
        first.append([4])
        var next = first
        next.append([5, 6])
        #expect(first.isPrefix(of: next) && first.isPrefix(of: first))
        #expect(!next.isPrefix(of: first))
        var cut = next
        cut.keep(before: 2)
        cut.append([9])
        #expect(!first.isPrefix(of: cut), "a call cut inside is not the call the cache held")
    }
}
