import ChatEvalCore
import Foundation
import Testing

@testable import ChatEvalGrading

@Suite("Combinators, weights and turn scores")
struct CombinatorsTests {
    @Test func allAnyNot() throws {
        let both: CheckArgument.Map = ["checks": [["type": "contains", "value": "fox"], ["type": "contains", "value": "dog"]]]
        #expect(try verdict("all", both, on: "fox and dog").passed)
        let half = try verdict("all", both, on: "fox only")
        #expect(!half.passed)
        #expect(half.score == 0.5)
        #expect(try verdict("any", both, on: "fox only").passed)
        #expect(!(try verdict("any", both, on: "cat").passed))
        #expect(try verdict("not", ["check": ["type": "contains", "value": "cat"]], on: "dog").passed)
        #expect(!(try verdict("not", ["check": ["type": "contains", "value": "cat"]], on: "cat").passed))
        #expect(try verdict("not-all", both, on: "fox only").passed)
    }

    @Test func nestedWeightsAndThreshold() throws {
        let weighted: CheckArgument.Map = [
            "checks": [
                ["type": "contains", "value": "fox", "weight": 3],
                ["type": "contains", "value": "cat"],
            ],
            "threshold": 0.7,
        ]
        let v = try verdict("all", weighted, on: "a fox")
        #expect(v.score == 0.75)
        #expect(v.passed)  // 0.75 ≥ 0.7 overrides "every check passes"
        #expect(!(try verdict("all", ["checks": weighted["checks"] ?? [], "threshold": 0.8], on: "a fox").passed))
    }

    @Test func scoreThresholdOnLevenshtein() throws {
        let v = try verdict("levenshtein", ["value": "abcdefghij", "threshold": 0], on: "abcdefghiX")
        #expect(!v.passed)
        #expect(v.score == 0.9)
    }

    @Test func nestedErrorsAreNotInverted() throws {
        let subject = GradingSubject(answer: String(repeating: "ab", count: 5_000) + "c")
        let tight = RegexCheck(pattern: "(a|b)*c", regex: try PythonRegex("(a|b)*c"), limits: RegexLimits(stepBudget: 100))
        let inner = Check(type: "regex", weight: 1, threshold: nil, isNegated: false, evaluator: tight)
        let v = Check(type: "not", weight: 1, threshold: nil, isNegated: false, evaluator: NotCheck(check: inner)).evaluate(subject)
        #expect(v.isError && !v.passed)
    }

    @Test func turnScoreIsTheWeightedPassRate() throws {
        let checks = [
            try makeCheck("contains", ["value": "a", "weight": 2]),
            try makeCheck("contains", ["value": "zzz"]),
            try makeCheck("contains", ["value": "b", "weight": 0]),
        ]
        let grade = Check.grade(checks, GradingSubject(answer: "a b"))
        #expect(grade.verdicts.count == 3)
        #expect(grade.score == 2.0 / 3.0)
        #expect(!grade.passed)
        #expect(Check.grade([], GradingSubject(answer: "x")).score == nil)
    }

    @Test func verdictsAreCodable() throws {
        let v = try verdict("contains", ["value": "x"], on: "x")
        let data = try JSONEncoder().encode(v)
        #expect(try JSONDecoder().decode(Verdict.self, from: data) == v)
    }
}
