import ChatEvalCore
import ChatEvalGrading
import ChatEvalSuites
import Testing

@Suite struct SuiteChecksTests {
    /// Checks are built once per run unless a placeholder makes each turn's different: the reuse
    /// must never hand one turn's filled-in check to another, nor one definition's to its neighbour.
    @Test func aCheckBuiltOnceIsReusedOnlyWhereNothingIsFilledIn() throws {
        let fixed = CheckDefinition(type: "regex", arguments: ["value": .string("^Lyon$")])
        let sibling = CheckDefinition(type: "regex", arguments: ["value": .string("^Paris$")])
        let quoting = CheckDefinition(type: "contains", arguments: ["value": .string("{{vars.city}}")])
        for _ in 0..<3 {
            #expect(try fixed.resolved { _ in nil }.evaluate(GradingSubject(answer: "Lyon")).passed)
            #expect(try !sibling.resolved { _ in nil }.evaluate(GradingSubject(answer: "Lyon")).passed)
        }
        #expect(try quoting.resolved { _ in "Lyon" }.evaluate(GradingSubject(answer: "in Lyon")).passed)
        #expect(try !quoting.resolved { _ in "Paris" }.evaluate(GradingSubject(answer: "in Lyon")).passed)
        #expect(try quoting.resolved { _ in "Paris" }.evaluate(GradingSubject(answer: "in Paris")).passed)
    }

    @Test func checksGatesAndShortFormsAreRead() throws {
        let suite = try SuiteLoader.parse(
            """
            name: s
            gates:
              min_pass_rate: 0.5
              max_failed_turns: 1
              metrics:
                - {metric: ttft, stat: p95, max: 2}
                - {metric: decode-tps, min: 10}
            conversations:
              - id: a
                vars: {city: Lyon}
                checks: [{type: ttft, aggregate: max, max: 3}]
                turns:
                  - user: Where do I live?
                    checks:
                      - icontains: "{{vars.city}}"
                      - {type: regex, value: "^[A-Z]", weight: 2}
                  - user: Again?
                    checks:
                      - {type: contains, value: "{{turn1.answer}}"}
                      - {type: not-contains, value: "{{turn2.user}}"}
            """, file: "t.yaml")
        let conversation = suite.conversations[0]
        #expect(conversation.turnChecks.map { $0.map(\.type) } == [["icontains", "regex"], ["contains", "not-contains"]])
        #expect(conversation.turnChecks[0][0].arguments["value"] == .string("{{vars.city}}"))
        #expect(conversation.turnChecks[0][1].arguments["weight"] == .integer(2))
        #expect(conversation.checks.map(\.type) == ["ttft"])
        #expect(conversation.turnChecks[0][0].line == 15)
        #expect(
            suite.gates
                == SuiteGates(
                    minimumPassRate: 0.5, maximumFailedTurns: 1,
                    metrics: [
                        MetricGate(metric: .timeToFirstToken, statistic: .p95, maximum: 2),
                        MetricGate(metric: .decodeTokensPerSecond, statistic: .median, minimum: 10),
                    ]))
        #expect(suite.checkCount == 5)
    }

    @Test func unknownCheckTypeIsLocatedAndGetsTheNearestName() throws {
        let error = try #require(
            rejection(
                """
                name: s
                conversations:
                  - id: a
                    turns:
                      - user: hi
                        checks:
                          - {type: icontans, value: x}
                """
            ).first)
        #expect(error.code == .unknownKey)
        #expect(error.line == 7)
        #expect(error.hint == "did you mean 'icontains'?")
    }

    @Test func unknownArgumentAndInvalidRegexPointAtTheirValues() {
        let found = rejection(
            """
            name: s
            conversations:
              - id: a
                turns:
                  - user: hi
                    checks:
                      - {type: contains, valeu: x}
                      - {type: regex, value: "a(b"}
                      - {type: length, unit: words, min: -1}
            """)
        #expect(found.count == 3)
        #expect(found.contains { $0.line == 7 && $0.message.contains("argument 'valeu'") && $0.hint == "did you mean 'value'?" })
        #expect(found.contains { $0.line == 8 && $0.message.contains("regex") })
        #expect(found.contains { $0.line == 9 && $0.message.contains("argument 'min' is negative") })
    }

    @Test func checksCannotQuoteLaterTurnsOrUnknownVariables() {
        let found = rejection(
            """
            name: s
            conversations:
              - id: a
                turns:
                  - user: hi
                    checks: [{type: contains, value: "{{turn2.answer}}"}, {type: contains, value: "{{vars.nope}}"}]
                  - user: there
            """)
        #expect(found.contains { $0.message.contains("{{turn2.answer}}") })
        #expect(found.contains { $0.message.contains("no variable 'nope'") })
    }

    @Test func badGatesAreExplained() {
        let found = rejection(
            """
            name: s
            gates:
              min_pass_rate: 1.5
              metrics:
                - {metric: tfft, max: 1}
                - {metric: ttft, stat: p42, max: 1}
                - {metric: ttft, min: 3, max: 1}
                - {metric: ttft}
            conversations: [{id: a, turns: [hi]}]
            """)
        #expect(found.contains { $0.message.contains("min_pass_rate must be between 0 and 1") })
        #expect(found.contains { $0.message == "unknown metric 'tfft'" && $0.hint == "did you mean 'ttft'?" })
        #expect(found.contains { $0.message == "unknown statistic 'p42'" })
        #expect(found.contains { $0.message.contains("is above max") })
        #expect(found.contains { $0.message == "a metric gate needs 'min' or 'max'" })
    }

    @Test func hugeOrAliasedCheckArgumentsAreRefused() {
        let wide = "[" + Array(repeating: "x", count: 10_001).joined(separator: ",") + "]"
        let found = rejection(
            """
            name: s
            conversations:
              - id: a
                turns:
                  - user: hi
                    checks: [{type: contains-any, value: \(wide)}]
            """)
        #expect(found.contains { $0.code == .tooComplex })
        // Aliases are expanded by the YAML composer; expanded values count against the limits.
        var bomb = "[&a0 [x, x, x, x, x, x, x, x, x, x]"
        for level in 1...5 { bomb += ", &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]" }
        bomb += "]"
        let aliased = rejection(
            """
            name: s
            conversations:
              - id: a
                turns:
                  - user: hi
                    checks: [{type: contains-any, value: \(bomb)}]
            """)
        #expect(aliased.map(\.code) == [.tooComplex])
    }
}
