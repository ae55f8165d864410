import ChatEvalCore
import Testing

@testable import ChatEvalGrading

@Suite("Check catalogue and definition errors")
struct CatalogueTests {
    @Test func unknownTypeSuggestsTheNearestNames() {
        let e = definitionError("contans", ["value": "x"])
        #expect(e?.kind == .unknownType)
        #expect(e?.suggestions.first == "contains")
        #expect(e?.description.contains("did you mean \"contains\"") == true)
        #expect(definitionError("not-regx", ["value": "x"])?.suggestions.first == "not-regex")
        #expect(definitionError("keywords:existance", ["keywords": ["a"]])?.suggestions.first == "keywords:existence")
    }

    @Test func unknownArgumentSuggestsTheNearestKey() {
        let e = definitionError("contains", ["valeu": "x"])
        #expect(e?.kind == .unknownArgument)
        #expect(e?.path == [.key("valeu")])
        #expect(e?.suggestions == ["value"])
        let weightTypo = definitionError("regex", ["value": "x", "wieght": 2])
        #expect(weightTypo?.suggestions == ["weight"])
        // threshold is only for checks with a score.
        #expect(definitionError("contains", ["value": "x", "threshold": 0.5])?.kind == .unknownArgument)
    }

    @Test func wrongTypesAndNegativeLimits() {
        let wrong = definitionError("length", ["max": "ten"])
        #expect(wrong?.kind == .wrongType)
        #expect(wrong?.expected?.contains("integer") == true)
        let negative = definitionError("length", ["min": -3])
        #expect(negative?.kind == .invalidValue)
        #expect(negative?.problem == "is negative (-3)")
        #expect(definitionError("contains-any", ["value": ["a", 3, "c"]])?.path == [.key("value"), .index(1)])
        #expect(definitionError("contains", ["value": 12])?.kind == .wrongType)
        #expect(definitionError("contains", ["value": "x", "weight": -1])?.kind == .invalidValue)
        #expect(definitionError("length", ["min": 5, "max": 2])?.kind == .invalidValue)
        #expect(definitionError("equals", [:])?.kind == .missingArgument)
        #expect(definitionError("equals", ["value": "a", "trim": "yes"])?.kind == .wrongType)
    }

    @Test func invalidRegexNamesTheArgument() {
        let e = definitionError("regex", ["value": "(unclosed"])
        #expect(e?.kind == .invalidRegex)
        #expect(e?.path == [.key("value")])
        #expect(e?.problem.contains("missing )") == true)
        #expect(definitionError("regex", ["value": "a", "flags": "ix"])?.kind == .invalidValue)
    }

    @Test func nestedErrorsCarryTheFullPath() {
        let e = definitionError("all", ["checks": [["type": "contains", "value": "a"], ["type": "regex", "value": "[z"]]])
        #expect(e?.kind == .invalidRegex)
        #expect(e?.path == [.key("checks"), .index(1), .key("value")])
        #expect(e?.pathDescription == "checks[1].value")
        #expect(definitionError("not", ["check": ["value": "a"]])?.path == [.key("check"), .key("type")])
        #expect(definitionError("any", ["checks": []])?.kind == .invalidValue)
    }

    @Test func validationSkipsRegexesWithPlaceholders() throws {
        #expect(throws: CheckDefinitionError.self) { try makeCheck("regex", ["value": "({{turn1.answer}}"]) }
        try CheckCatalogue.validate(type: "regex", arguments: ["value": "({{turn1.answer}}"])
        #expect(throws: CheckDefinitionError.self) { try CheckCatalogue.validate(type: "regex", arguments: ["value": "(x"]) }
        #expect(throws: CheckDefinitionError.self) { try CheckCatalogue.validate(type: "regx", arguments: ["value": "{{a}}"]) }
        // IFEval keywords are regexes too.
        try CheckCatalogue.validate(type: "keywords:existence", arguments: ["keywords": ["({{turn1.answer}}"]])
        #expect(throws: CheckDefinitionError.self) {
            try CheckCatalogue.validate(type: "keywords:existence", arguments: ["keywords": ["({{turn1.answer}}"], "mode": "losse"])
        }
    }

    /// 40,000 nested groups overflowed the stack of the former regex parser. They now reach PCRE2's
    /// nesting limit, through both ways a user has: a suite's regex, and a regex quoting an answer.
    @Test func fortyThousandNestedGroupsAreAnErrorNotACrash() throws {
        let nested = String(repeating: "(", count: 40_000) + "x" + String(repeating: ")", count: 40_000)
        let written = try #require(throws: CheckDefinitionError.self) {
            try CheckCatalogue.make(definition: ["type": "regex", "value": .string(nested), "weight": 2])
        }
        #expect(written.kind == .invalidRegex)
        #expect(written.path == [.key("value")])
        #expect(written.problem.contains("parentheses are too deeply nested at position 251"))

        // The suite's check validates (its placeholder is filled in at grading time)…
        let definition: CheckArgument.Map = ["keywords": ["{{turn1.answer}}"], "mode": "loose"]
        try CheckCatalogue.validate(type: "keywords:existence", arguments: definition)
        try CheckCatalogue.validate(type: "regex", arguments: ["value": "^{{turn1.answer}}$"])
        // …then the answer fills it in, as the runner does before building the check.
        let answer = nested
        let keyword = try TemplateText("{{turn1.answer}}").render { $0 == "turn1.answer" ? answer : nil }
        let quoted = try #require(throws: CheckDefinitionError.self) {
            try CheckCatalogue.make(type: "keywords:existence", arguments: ["keywords": [.string(keyword)], "mode": "loose"])
        }
        #expect(quoted.kind == .invalidRegex)
        #expect(quoted.path == [.key("keywords"), .index(0)])
        let pattern = try TemplateText("^{{turn1.answer}}$").render { $0 == "turn1.answer" ? answer : nil }
        #expect(throws: CheckDefinitionError.self) { try CheckCatalogue.make(type: "regex", arguments: ["value": .string(pattern)]) }
        // The same text as an answer is just text.
        #expect(try verdict("regex", ["value": #"^\(+x\)+$"#], on: nested).passed)
    }

    @Test func allTypesDescribeEveryType() {
        let types = CheckCatalogue.allTypes
        #expect(Set(types.map(\.name)).count == types.count)
        for name in [
            "equals", "contains", "icontains", "contains-all", "contains-any", "icontains-all", "icontains-any",
            "starts-with", "ends-with", "regex", "one-of", "length", "is-json", "json", "levenshtein", "refusal",
            "ttft", "prefill-tps", "decode-tps", "total-time", "tpot", "peak-memory", "reuse-ratio",
            "reuse-efficiency", "generated-tokens",
            "stop-reason", "failure", "all", "any", "not",
        ] {
            #expect(CheckCatalogue.info(for: name) != nil, "\(name)")
        }
        for info in types {
            #expect(!info.summary.isEmpty)
            #expect(info.arguments.allSatisfy { !$0.name.isEmpty && !$0.valueType.isEmpty })
        }
        #expect(CheckCatalogue.info(for: "levenshtein")?.hasScore == true)
    }

    @Test func definitionFromOneMap() throws {
        let check = try CheckCatalogue.make(definition: ["type": "icontains", "value": "HELLO", "weight": 2])
        #expect(check.weight == 2)
        #expect(check.evaluate(GradingSubject(answer: "hello")).passed)
    }
}
