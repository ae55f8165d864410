import ChatEvalCore
import ChatEvalSuites
import Foundation
import Testing

@Suite struct SuiteLoaderTests {
    @Test func defaultsAreOverlaidByConversationOverrides() throws {
        let suite = try SuiteLoader.parse(
            """
            name: s
            defaults: {system: Be brief., max_tokens: 40, temperature: 0, stop: ["\\n\\n"], vars: {city: Lyon}}
            conversations:
              - id: a
                max_tokens: 8
                vars: {country: France}
                turns:
                  - user: "Hi from {{vars.city}}"
                  - "And {{vars.country}}? You said {{turn1.answer}}"
              - id: b
                system: Be verbose.
                turns: ["x"]
            """, file: "t.yaml")
        #expect(suite.name == "s")
        let a = suite.conversations[0].script
        #expect(a.systemPrompt == "Be brief.")
        #expect(a.options.maxTokens == 8)
        #expect(a.options.stop == ["\n\n"])
        #expect(a.variables == ["city": "Lyon", "country": "France"])
        #expect(a.userMessages.map(\.source) == ["Hi from {{vars.city}}", "And {{vars.country}}? You said {{turn1.answer}}"])
        let b = suite.conversations[1].script
        #expect(b.systemPrompt == "Be verbose." && b.options.maxTokens == 40)
        #expect(suite.turnCount == 3)
    }

    @Test func unknownKeyIsLocatedAndGetsASuggestion() throws {
        let found = rejection(
            """
            name: s
            defaults:
              max_token: 12
            conversations: [{id: a, turns: [hi]}]
            """)
        let error = try #require(found.first)
        #expect(error.code == .unknownKey)
        #expect(error.line == 3 && error.column == 3)
        #expect(error.hint == "did you mean 'max_tokens'?")
        #expect(error.description.hasPrefix("t.yaml:3:3: error: unknown key 'max_token' in defaults"))
    }

    @Test func everyProblemOfAFileIsReported() {
        let found = rejection(
            """
            name: s
            defaults: {max_tokens: many, top_p: 2}
            conversations:
              - id: a
                turns: []
              - id: a
                turns: ["{{turn3.answer}}", "{{vars.nope}}", "{{weird}}"]
            """)
        let codes = found.map(\.code)
        #expect(codes.contains(.wrongType))  // max_tokens: many
        #expect(codes.contains(.duplicate))  // id a twice
        #expect(found.contains { $0.message.contains("has no turns") })
        #expect(found.contains { $0.message.contains("{{turn3.answer}}, which is not an earlier turn") })
        #expect(found.contains { $0.message.contains("no variable 'nope'") })
        #expect(found.contains { $0.message.contains("unknown placeholder {{weird}}") })
        #expect(found.contains { $0.message.contains("top_p") })
        #expect(found.allSatisfy { $0.line != nil })
    }

    @Test func syntaxErrorsCarryLineAndColumn() throws {
        let error = try #require(rejection("name: s\nconversations: [a, b\n  c: d\n").first)
        #expect(error.code == .syntax)
        #expect(error.line != nil && error.column != nil)
    }

    /// The YAML mistakes people make, in plain words at the line to fix (libyaml's text kept in
    /// the hint): a tab indenting, a line out of step, an unquoted ": " in a value.
    @Test(arguments: [
        ("name: s\nconversations:\n\t- id: a\n\t  turns: [x]\n", 3, "a tab character indents this line"),
        ("name: s\r\nconversations:\r\n\t- id: a\r\n\t  turns: [x]\r\n", 3, "a tab character indents this line"),  // CRLF
        ("name: s\nconversations:\n  - id: a\n    turns: [x]\n   system: hi\n", 5, "indented out of step"),
        ("name: s\nconversations:\n  - id: a\n    system: Answer: briefly\n    turns: [x]\n", 4, "must be quoted"),
    ])
    func commonYAMLMistakesAreNamed(_ text: String, _ line: Int, _ phrase: String) throws {
        let error = try #require(rejection(text).first)
        #expect(error.code == .syntax)
        #expect(error.line == line, "\(error)")
        #expect(error.message.contains(phrase), "\(error)")
        #expect(error.hint?.contains("libyaml:") == true)
    }

    /// `validate suite/x.yml` said only "no such file": the nearest path that exists is offered.
    @Test func aMistypedPathGetsTheNearestOneThatExists() {
        let tree: [String: [String]] = [".": ["suites", "reports", "chateval.yaml"], "suites": ["smoke.yaml", "memory.yaml"]]
        #expect(nearestPath(to: "suite/smoke.yml") { tree[$0] } == "suites/smoke.yaml")
        #expect(nearestPath(to: "./suites/memroy.yaml") { tree[$0] } == "./suites/memory.yaml")
        #expect(nearestPath(to: "suites/smoke.yaml") { tree[$0] } == nil)  // it exists
        #expect(nearestPath(to: "elsewhere/thing.yaml") { tree[$0] } == nil)  // nothing close
        #expect(nearestPath(to: "") { tree[$0] } == nil)
    }

    @Test func duplicateKeysAreRejected() throws {
        let error = try #require(rejection("name: s\nname: t\nconversations: [{id: a, turns: [x]}]\n").first)
        #expect(error.code == .duplicate)
        #expect(error.message.contains("'name'"))
    }

    /// Keys are compared by their text (the YAML is composed without Yams' tag rules): a plain
    /// `1` and a quoted "1" are one key, as the readers, which look keys up by text, take them.
    /// With the tag rules they were an int and a string: two keys, of which a lookup by text found one.
    @Test func keysThatReadAsOtherTypesAreStillDuplicatesByTheirText() throws {
        let suite = "name: s\nconversations:\n  - id: a\n    vars: {1: one, \"1\": uno}\n    turns: [x]\n"
        let error = try #require(rejection(suite).first)
        #expect(error.code == .duplicate)
        #expect(error.message.contains("'1'"))
        // Numbers, booleans and nulls written plain still read as such where a value is read.
        let typed = try SuiteLoader.parse(
            "name: s\nconversations:\n  - id: a\n    turns:\n      - user: x\n"
                + "        checks: [{type: length, unit: words, min: 2, max: 400}, {type: starts-with, value: x, trim: yes}]\n",
            file: "s.yaml")
        let checks = try #require(typed.conversations.first?.turnChecks.first)
        #expect(checks.first?.arguments["min"] == .integer(2))
        #expect(checks.last?.arguments["trim"] == .bool(true))
    }

    @Test func missingRequiredKeysAreNamed() {
        let found = rejection("description: nothing else\n")
        #expect(found.map(\.message).contains("the suite has no 'name'"))
        #expect(found.map(\.message).contains("the suite has no 'conversations'"))
        #expect(rejection("").first?.message == "the file is empty")
    }

    @Test func absurdNestingIsRefusedBeforeParsing() throws {
        let deep = "name: s\nconversations: " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let error = try #require(rejection(deep).first)
        #expect(error.code == .tooComplex)
    }

    @Test func aliasesCannotBuildAHugeSuite() {
        // A "billion laughs" value where the loader reads settings: each level multiplies the size
        // by ten (10^9 strings expanded). The reading budget refuses it before anything walks the
        // expansion, once, at the value where the count passed it.
        var bomb = "[&l0 [a, a, a, a, a, a, a, a, a, a]"
        for level in 1...9 { bomb += ", &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]" }
        bomb += "]"
        let found = rejection("name: s\ndefaults: {stop: \(bomb)}\nconversations: [{id: a, turns: [hi]}]\n")
        #expect(found.map(\.code) == [.tooComplex])
        #expect(found.first?.message.contains("once its aliases are expanded") == true, "\(found)")
    }

    @Test func binaryAndNonUTF8FilesAreRejected() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("suites-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = directory.appendingPathComponent("binary.yaml")
        try Data([0x6E, 0x61, 0x6D, 0x65, 0x3A, 0x00, 0x01]).write(to: binary)
        let latin1 = directory.appendingPathComponent("latin1.yaml")
        try Data([0x6E, 0x61, 0x6D, 0x65, 0x3A, 0x20, 0xE9]).write(to: latin1)

        #expect(throws: SuiteErrors.self) { try SuiteLoader.load(path: binary.path) }
        do { _ = try SuiteLoader.load(path: binary.path) } catch { #expect(error.errors.first?.code == .notText) }
        do { _ = try SuiteLoader.load(path: latin1.path) } catch { #expect(error.errors.first?.code == .notText) }
        do { _ = try SuiteLoader.load(path: directory.appendingPathComponent("missing.yaml").path) } catch {
            #expect(error.errors.first?.code == .unreadable)
        }
    }
}

/// `variants:` runs every conversation once per variant, the variant's settings over the
/// conversation's: the matrix's columns.
@Suite struct SuiteVariantTests {
    static let yaml = """
        name: tone
        defaults: {system: Be helpful., max_tokens: 32, vars: {city: Paris}}
        variants:
          - {id: terse, system: Five words at most.}
          - {id: chatty, system: Be warm., temperature: 0.7, vars: {city: Lyon}}
        conversations:
          - id: capital
            turns:
              - user: Tell me about {{vars.city}}.
                checks: [{type: icontains, value: "{{vars.city}}"}]
          - id: plain
            system: Mine.
            turns: [Hello]
        """

    @Test func eachConversationRunsUnderEachVariant() throws {
        let suite = try SuiteLoader.parse(Self.yaml, file: "tone.yaml")
        #expect(suite.variants == ["terse", "chatty"])
        #expect(suite.conversations.map(\.id) == ["capital@terse", "capital@chatty", "plain@terse", "plain@chatty"])
        #expect(suite.conversations.map(\.baseID) == ["capital", "capital", "plain", "plain"])
        #expect(suite.conversations.map(\.variant) == ["terse", "chatty", "terse", "chatty"])
        let chatty = suite.conversations[1].script
        #expect(chatty.systemPrompt == "Be warm." && chatty.options.temperature == 0.7 && chatty.options.maxTokens == 32)
        #expect(chatty.variables == ["city": "Lyon"])
        #expect(suite.conversations[0].script.variables == ["city": "Paris"])
        #expect(suite.conversations[2].script.systemPrompt == "Five words at most.")  // the variant is what varies
    }

    /// A selection by the id as written picks the conversation under every variant.
    @Test func theWrittenIdSelectsEveryVariant() throws {
        let suite = try SuiteLoader.parse(Self.yaml, file: "tone.yaml")
        let picked = try SuiteSelection(conversationsByPath: ["tone.yaml": ["capital"]]).apply(to: [suite]).get()
        #expect(picked.first?.conversations.map(\.id) == ["capital@terse", "capital@chatty"])
    }

    @Test func aProblemInAConversationIsReportedOnceNotOncePerVariant() {
        let errors = rejection(Self.yaml.replacingOccurrences(of: "type: icontains", with: "type: icontain"))
        #expect(errors.count == 1, "\(errors)")
    }

    /// A variant's `turns` replace each conversation's user messages one for one, the checks
    /// staying the conversation's (promptfoo's prompts as columns); a count that does not match
    /// a conversation's turns, and a placeholder no variable fills, are errors at their lines.
    @Test func aVariantsTurnsReplaceTheUserMessages() throws {
        let yaml = """
            name: prompts
            variants:
              - {id: ask, turns: ["Name a {{vars.kind}}."]}
              - {id: tell, system: Be brief., turns: ["Tell me one {{vars.kind}}, nothing else."]}
            conversations:
              - id: fruit
                vars: {kind: fruit}
                turns:
                  - user: Name a {{vars.kind}}.
                    checks: [{type: icontains, value: apple}]
            """
        let suite = try SuiteLoader.parse(yaml, file: "prompts.yaml")
        #expect(suite.conversations.map(\.id) == ["fruit@ask", "fruit@tell"])
        #expect(suite.conversations[1].script.userMessages.map(\.source) == ["Tell me one {{vars.kind}}, nothing else."])
        #expect(suite.conversations[1].script.systemPrompt == "Be brief.")
        #expect(suite.conversations.allSatisfy { $0.turnChecks[0].map(\.type) == ["icontains"] })

        let mismatch = rejection(yaml.replacingOccurrences(of: "turns: [\"Name a {{vars.kind}}.\"]", with: "turns: [a, b]"))
        #expect(mismatch.count == 1, "\(mismatch)")
        #expect(mismatch.first?.line == 3)
        #expect(mismatch.first?.message.contains("variant 'ask' gives 2 user messages, but conversation 'fruit' has 1 turn") == true)
        let unfilled = rejection(yaml.replacingOccurrences(of: "Tell me one {{vars.kind}}", with: "Tell me one {{vars.knid}}"))
        #expect(unfilled.contains { $0.line == 4 && $0.message.contains("no variable 'knid'") }, "\(unfilled)")
    }

    @Test(arguments: [
        ("variants: [{id: only}]", "at least two"),
        ("variants: [{id: a}, {id: a}]", "used twice"),
        ("variants: [{id: 'a b'}, {id: c}]", "must be letters"),
        ("variants: [{id: a, sytem: x}, {id: b}]", "did you mean 'system'?"),
    ])
    func badVariantsAreNamed(_ variants: String, _ phrase: String) {
        let errors = rejection("name: s\n\(variants)\nconversations: [{id: c, turns: [hi]}]\n")
        #expect(errors.contains { $0.description.contains(phrase) }, "\(errors)")
    }
}
