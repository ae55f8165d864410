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
        ("qa ttft", "is not three words and a bound"),
        ("qa ttft slower", "'slower' is not a direction (worse or better)"),
        ("qa tfft worse", "did you mean 'ttft'?"),
        ("qa ttft worse please", "'please' is not a bound"),
        ("qa ttft worse +15% please", "is not three words and a bound"),
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

    /// A bound: tokens per turn for the ledger's token counts, a share for a metric; its sign
    /// not read. Before, a fourth word was "not three words" and the trailer was ignored.
    @Test func aTrailerMayCarryABound() throws {
        let tokens = try Expectation.parse("* evaluated-tokens worse +3", commit: "a").get()
        #expect(tokens.bound == 3 && tokens.boundText == "+3" && tokens.description == "* evaluated-tokens worse +3")
        let share = try Expectation.parse("qa ttft worse +15%", commit: "a").get()
        #expect(share.bound == 0.15 && share.description == "qa ttft worse +15%")
        #expect(try Expectation.parse("qa decode-tps worse -12.5%", commit: "a").get().boundText == "+12.5%")
        #expect(try Expectation.parse("qa generated-tokens worse 40", commit: "a").get().bound == 40)
        // Old three-word trailers still read: valid, without a bound.
        #expect(try Expectation.parse("qa generated-tokens worse", commit: "a").get().bound == nil)
    }

    @Test(arguments: [
        ("qa ttft worse +3", "a metric's bound is a share, e.g. +15%"),
        ("qa evaluated-tokens worse +3%", "it counts whole tokens per turn, e.g. +3"),
        ("qa evaluated-tokens worse +2.5", "it counts whole tokens per turn"),
        ("qa answers worse +1", "answers takes no bound"),
        ("qa checks:icontains worse +1", "checks takes no bound"),
        ("qa ttft worse 0%", "'0%' is not a bound"),
        ("qa ttft worse +0x10%", "'+0x10%' is not a bound"),
        ("qa checks: worse", "names no check; write checks:TYPE (checks:icontains) or checks:*"),
    ])
    func aBoundOrCheckThatDoesNotReadSaysWhy(_ value: String, _ phrase: String) {
        guard case .failure(let problem) = Expectation.parse(value, commit: "a") else {
            Issue.record("\(value) was read")
            return
        }
        #expect(problem.message.contains(phrase), "\(problem.message)")
    }

    /// `checks:TYPE` covers checks of that type only, `checks:*` every check; a bare `checks`
    /// still reads as every check (a commit in the history cannot be corrected), with advice.
    @Test func checksNameACheckOrSayEveryCheck() throws {
        let one = try Expectation.parse("qa checks:icontains worse", commit: "a").get()
        #expect(one.subject == "checks" && one.check == "icontains" && one.description == "qa checks:icontains worse")
        #expect(one.covers(suite: "qa", subject: "checks", check: "icontains", direction: .worse))
        #expect(!one.covers(suite: "qa", subject: "checks", check: "regex", direction: .worse))
        #expect(one.advice == nil)
        let every = try Expectation.parse("qa checks:* worse", commit: "a").get()
        #expect(every.check == "*" && every.covers(suite: "qa", subject: "checks", check: "regex", direction: .worse))
        #expect(every.advice == nil)
        let bare = try Expectation.parse("qa checks worse", commit: "a").get()
        #expect(bare.check == nil && bare.covers(suite: "qa", subject: "checks", check: "regex", direction: .worse))
        #expect(bare.advice?.contains("say which check: checks:TYPE, or checks:* for every check of the suite") == true)
    }

    /// A trailer without a bound, with other commits changing the inputs: not applied, saying
    /// why and what to write. With a bound, or alone, or for the better: applied.
    @Test func anUnboundedTrailerBesideOtherInputChangesIsNotApplied() throws {
        var open = try Expectation.parse("* evaluated-tokens worse", commit: "abc1234").get()
        #expect(open.notApplied == nil)
        open.otherCommitsChangingInputs = []
        #expect(open.notApplied == nil)
        open.otherCommitsChangingInputs = ["def5678", "1234567"]
        #expect(
            open.notApplied
                == "2 other commits (def5678, 1234567) change the suites' inputs; give it a bound (`+3`) so only its own change is accepted"
        )
        var bounded = try Expectation.parse("* evaluated-tokens worse +3", commit: "abc1234").get()
        bounded.otherCommitsChangingInputs = ["def5678"]
        #expect(bounded.notApplied == nil)
        var metric = try Expectation.parse("qa ttft worse", commit: "abc1234").get()
        metric.otherCommitsChangingInputs = ["def5678"]
        #expect(metric.notApplied?.hasPrefix("1 other commit (def5678) changes the suites' inputs; give it a bound (`+15%`)") == true)
        var better = try Expectation.parse("qa ttft better", commit: "abc1234").get()
        better.otherCommitsChangingInputs = ["def5678"]
        #expect(better.notApplied == nil)
    }
}
