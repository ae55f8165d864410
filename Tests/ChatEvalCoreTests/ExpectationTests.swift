import ChatEvalCore
import Testing

/// A `ChatEval-Expect` trailer's value: three words, each checked, with what to write instead.
@Suite struct ExpectationTests {
    @Test func aTrailerReadsAsSuiteSubjectAndDirection() throws {
        let expectation = try Expectation.parse("qa  TTFT worse", commit: "abc1234").get()
        #expect(expectation == Expectation(commit: "abc1234", suite: "qa", subject: "ttft", direction: .worse))
        #expect(expectation.description == "qa ttft worse")
        #expect(try Expectation.parse("* evaluated-tokens worse", commit: "a").get().suite == "*")
        #expect(try Expectation.parse("memory checks better", commit: "a").get().direction == .better)
    }

    @Test(arguments: [
        ("qa ttft", "is not three words"),
        ("qa ttft slower", "'slower' is not a direction (worse or better)"),
        ("qa tfft worse", "did you mean 'ttft'?"),
        ("qa ttft worse please", "is not three words"),
    ])
    func aTrailerThatDoesNotReadSaysWhy(_ value: String, _ phrase: String) {
        guard case .failure(let problem) = Expectation.parse(value, commit: "a") else {
            Issue.record("\(value) was read")
            return
        }
        #expect(problem.message.contains(phrase), "\(problem.message)")
        // What to write instead: the form, or the nearest subject.
        #expect(problem.message.contains("ChatEval-Expect: qa ttft worse") || problem.message.contains("did you mean"))
    }

    @Test func everySuiteIsCoveredByAStarAndOnlyItsDirection() {
        let any = Expectation(commit: "a", suite: "*", subject: "ttft", direction: .worse)
        #expect(any.covers(suite: "qa", subject: "ttft", direction: .worse))
        #expect(!any.covers(suite: "qa", subject: "ttft", direction: .better))
        #expect(!any.covers(suite: "qa", subject: "decode-tps", direction: .worse))
        let one = Expectation(commit: "a", suite: "qa", subject: "ttft", direction: .worse)
        #expect(!one.covers(suite: "memory", subject: "ttft", direction: .worse))
    }
}
