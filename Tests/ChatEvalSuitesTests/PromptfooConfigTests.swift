import ChatEvalCore
import ChatEvalGrading
import Foundation
import Testing

@testable import ChatEvalSuites

/// A promptfoo config runs as a suite and converts to one: prompts × tests as conversations,
/// vars as variables, deterministic asserts as checks, the rest refused at their lines.
@Suite struct PromptfooConfigTests {
    static let config = """
        description: Tweets about topics
        prompts:
          - "Write a tweet about {{topic}}"
          - '[{"role": "system", "content": "You are terse."}, {"role": "user", "content": "One word about {{ topic }}"}]'
        providers: [openai:gpt-4o-mini]
        defaultTest:
          assert:
            - type: not-icontains
              value: "As an AI"
        tests:
          - description: Bananas
            vars: {topic: bananas}
            assert:
              - type: icontains
                value: "{{topic}}"
              - type: latency
                threshold: 3000
          - vars:
              topic: [cats, dogs]
            assert:
              - type: word-count
                value: 12
        """

    /// promptfoo's prompts are columns over its tests: two prompts of one user message each are
    /// the suite's variants, each test a conversation run under both (before: each prompt × test
    /// a separate conversation, so the matrix could not set the prompts side by side).
    /// (Issue 44: the suite is named by the config's description, as promptfoo titles the eval,
    /// not by its folder; each prompt's variant by its label, else its first words — "p1" and
    /// "p2" named nothing a person recognises from the config.)
    @Test func promptsAreVariantsOverTestsWithVariablesAndChecks() throws {
        let suite = try SuiteLoader.parse(Self.config, file: "tweets/promptfooconfig.yaml")
        #expect(suite.name == "tweets-about-topics")
        #expect(suite.description == "Tweets about topics")
        #expect(suite.variants == ["write-a-tweet-about-topic", "you-are-terse"])
        // (1 test + 1 test whose list value expands to 2) × 2 prompts.
        let (a, b) = ("write-a-tweet-about-topic", "you-are-terse")
        #expect(
            suite.conversations.map(\.id) == [
                "bananas@\(a)", "bananas@\(b)", "test-2-1@\(a)", "test-2-1@\(b)", "test-2-2@\(a)", "test-2-2@\(b)",
            ])
        let bananas = suite.conversations[0]
        #expect(bananas.script.userMessages.map(\.source) == ["Write a tweet about {{vars.topic}}"])
        #expect(bananas.script.systemPrompt == nil)
        #expect(bananas.script.variables == ["topic": "bananas"])
        #expect(bananas.turnChecks[0].map(\.type) == ["not-icontains", "icontains", "total-time"])  // defaultTest's first
        #expect(bananas.turnChecks[0][2].arguments["max"] == .integer(3))  // 3000 ms of latency is 3 s of total-time
        let chat = suite.conversations[1]
        #expect(chat.variant == "you-are-terse" && chat.baseID == "bananas")
        #expect(chat.script.systemPrompt == "You are terse.")
        #expect(chat.script.userMessages.map(\.source) == ["One word about {{vars.topic}}"])
        #expect(chat.turnChecks == bananas.turnChecks)
        #expect(suite.conversations[4].script.variables == ["topic": "dogs"])
        #expect(suite.conversations[4].turnChecks[0].map(\.type) == ["not-icontains", "length"])
        // Providers are not read, and the run says so.
        #expect(suite.warnings.map(\.line) == [5])
        #expect(suite.warnings.first?.message.contains("providers are not read") == true)
    }

    /// Prompts of different shapes (one user message, two) cannot share a conversation's turns:
    /// each prompt × test stays its own conversation, and a warning says why there is no matrix.
    @Test func promptsOfDifferentShapesStaySeparateConversations() throws {
        let config = """
            prompts:
              - "Name {{thing}}"
              - '[{"role": "user", "content": "Think of {{thing}}"}, {"role": "user", "content": "Now name it"}]'
            tests: [{vars: {thing: a fruit}}]
            """
        let suite = try SuiteLoader.parse(config, file: "promptfooconfig.yaml")
        #expect(suite.variants.isEmpty)
        #expect(suite.conversations.map(\.id) == ["name-thing-test-1", "think-of-thing-test-1"])
        #expect(suite.conversations[1].script.userMessages.count == 2)
        #expect(suite.warnings.contains { $0.message.contains("different numbers of user messages") })
    }

    /// Issue 44: `word-count` with `{min, max}` (either alone) was refused at its line although
    /// the README's promptfoo table says it converts: it is a length in words within the bounds.
    @Test(arguments: [
        ("{min: 5, max: 20}", ["min": CheckArgument.integer(5), "max": .integer(20)]), ("{min: 3}", ["min": .integer(3)]),
        ("{max: 40}", ["max": .integer(40)]), ("12", ["min": .integer(12), "max": .integer(12)]),
    ])
    func wordCountConvertsToALengthInWords(_ value: String, _ bounds: [String: CheckArgument]) throws {
        let config = "prompts: ['Say {{x}}']\ntests:\n  - vars: {x: hi}\n    assert:\n      - type: word-count\n        value: \(value)\n"
        let suite = try SuiteLoader.parse(config, file: "promptfooconfig.yaml")
        let check = try #require(suite.conversations.first?.turnChecks.first?.first)
        #expect(check.type == "length")
        #expect(check.arguments["unit"] == .string("words"))
        for name in ["min", "max"] { #expect(check.arguments[name] == bounds[name], "\(name) of \(value): \(check.arguments)") }
        // A bound that is not a count is still refused, at its line.
        #expect(!rejection(config.replacingOccurrences(of: value, with: "{min: few}")).isEmpty)
    }

    /// Issue 44: prompts without a label are named by their first words, cut at a word; a label wins.
    @Test func variantsAreNamedByLabelElseFirstWords() throws {
        let config = """
            prompts:
              - 'Answer in at most five words, please, about {{topic}}'
              - {raw: 'Explain {{topic}} fully', label: Thorough answer}
              - '[{"role": "system", "content": "You are a pirate captain of great renown."}, {"role": "user", "content": "{{topic}}"}]'
            tests: [{vars: {topic: tides}}]
            """
        let suite = try SuiteLoader.parse(config, file: "promptfooconfig.yaml")
        #expect(suite.variants == ["answer-in-at-most-five", "thorough-answer", "you-are-a-pirate-captain"])
        #expect(PromptfooConfig.slug(String(repeating: "word ", count: 20), fallback: "x").hasSuffix("word"), "cut after a word")
    }

    /// Model-graded and code assertions are refused one by one, at their line, with what to do.
    @Test func assertionsChatEvalCannotRunAreRefusedAtTheirLines() throws {
        let config = Self.config.replacingOccurrences(
            of: "      - type: word-count\n        value: 12",
            with: "      - type: llm-rubric\n        value: is funny\n      - type: javascript\n        value: output.length < 100")
        #expect(config != Self.config)
        let errors = rejection(config)
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.map(\.line) == [21, 23])
        #expect(errors[0].message.contains("'llm-rubric' is a model-graded promptfoo assertion"))
        #expect(errors[1].message.contains("ChatEval runs no user code"))
        #expect(errors.allSatisfy { $0.hint?.contains("--drop-unsupported") == true })
    }

    @Test(arguments: [
        ("prompts: [file://prompt.txt]\ntests: [{vars: {a: b}}]\n", "from file://prompt.txt are not read"),
        ("prompts: [hi]\ntests: file://tests.csv\n", "from file://tests.csv are not read"),
        ("prompts: ['{% if x %}hi{% endif %}']\ntests: [{vars: {x: y}}]\n", "Nunjucks tags"),
        ("prompts: ['{{ topic | upper }}']\ntests: [{vars: {topic: y}}]\n", "Nunjucks filter"),
        (
            "prompts: ['[{\"role\": \"assistant\", \"content\": \"hi\"}, {\"role\": \"user\", \"content\": \"go\"}]']\ntests: [{}]\n",
            "'assistant' message is not replayed"
        ),
    ])
    func whatDoesNotConvertIsNamed(_ config: String, _ phrase: String) {
        let errors = rejection(config)
        #expect(errors.contains { $0.description.contains(phrase) }, "\(errors)")
        #expect(errors.allSatisfy { $0.line != nil })
    }

    /// A variable a test does not set renders empty, as in promptfoo, with a warning that
    /// suggests the nearest name it does set.
    @Test func anUnsetVariableRendersEmptyAndIsWarnedAbout() throws {
        let suite = try SuiteLoader.parse("prompts: ['Say {{name}}']\ntests: [{vars: {nam: x}}]\n", file: "promptfooconfig.yaml")
        #expect(suite.conversations[0].script.variables == ["nam": "x", "name": ""])
        let warning = try #require(suite.warnings.first { $0.message.contains("does not set 'name'") })
        #expect(warning.line == 2)
        #expect(warning.hint?.contains("did you mean 'nam'?") == true)
    }

    /// A prompt of thousands of placeholders, not all ASCII, converts in linear time: the fuzzer
    /// found one of 6,600 taking 11 s (Foundation's `range(of:)` transcoded the whole rest of the
    /// prompt at each one); this one, 13,000 over three tests, took 200 s. The bound is generous.
    @Test func aPromptOfThousandsOfPlaceholdersConvertsAtOnce() throws {
        let prompt = String(repeating: "Tell me about {{topic}} in café, ", count: 13_000)
        let started = Date()
        let tests = "tests: [{vars: {topic: bees}}, {vars: {topic: ants}}, {vars: {topic: cats}}]\n"
        let suite = try SuiteLoader.parse("prompts: ['\(prompt)']\n" + tests, file: "promptfooconfig.yaml")
        let took = Date().timeIntervalSince(started)
        #expect(suite.conversations.count == 3)
        #expect(took < 10, "\(took) s")
    }

    /// A file with `conversations` is a suite, whatever else it says; `prompts` alone is not promptfoo.
    @Test func onlyAPromptfooShapeIsConverted() {
        let errors = rejection("prompts: [hi]\nname: s\n")
        #expect(errors.contains { $0.message.contains("unknown key 'prompts'") })
    }

    @Test func theImportedSuiteLoadsBackAsTheSameSuite() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("promptfoo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("promptfooconfig.yaml").path
        try Self.config.write(toFile: path, atomically: true, encoding: .utf8)
        let (yaml, warnings) = try SuiteLoader.importPromptfoo(path: path)
        #expect(warnings.count == 1)
        let direct = try SuiteLoader.load(path: path)
        let reloaded = try SuiteLoader.parse(yaml, file: "imported.yaml")
        #expect(reloaded.conversations.map(\.id) == direct.conversations.map(\.id))
        #expect(reloaded.conversations.map(\.script) == direct.conversations.map(\.script))
        let checkTypes: (SuiteConversation) -> [[String]] = { $0.turnChecks.map { $0.map(\.type) } }
        #expect(reloaded.conversations.map(checkTypes) == direct.conversations.map(checkTypes))
        #expect(!yaml.contains("providers"))
    }
}

/// Real configs from promptfoo's `examples/` (MIT; Fixtures/promptfoo/SOURCES.md): each runs,
/// converts with what it cannot hold left out, or is refused at the line that cannot convert.
@Suite struct PromptfooExampleTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/promptfoo")
    static func path(_ name: String) -> String { folder.appendingPathComponent(name + ".yaml").path }

    /// Deterministic asserts only: it runs as it is.
    @Test func gettingStartedRunsAsItIs() throws {
        let suite = try SuiteLoader.load(path: Self.path("getting-started"))
        #expect(suite.conversations.count == 4)  // 2 prompts × 2 tests
        #expect(suite.conversations.allSatisfy { $0.turnChecks.count == 1 && !$0.script.variables.isEmpty })
        #expect(suite.warnings.count == 1)  // providers
        // Non-ASCII values arrive intact.
        #expect(suite.conversations.flatMap { $0.turnChecks.flatMap { $0 } }.contains { "\($0.arguments)".contains("Dónde") })
    }

    /// cost and llm-rubric are refused at their lines; left out on request, the rest converts and
    /// latency (3000 ms) is total-time at most 3 s.
    @Test func modelGradedAndCostAssertionsAreRefusedOrLeftOut() throws {
        #expect(throws: SuiteErrors.self) { try SuiteLoader.load(path: Self.path("gpt-4o-vs-4o-mini")) }
        let errors = (try? SuiteLoader.load(path: Self.path("gpt-4o-vs-4o-mini"))) == nil ? refusal("gpt-4o-vs-4o-mini") : []
        #expect(errors.map(\.line) == [14, 28, 33], "\(errors)")
        let (yaml, warnings) = try SuiteLoader.importPromptfoo(path: Self.path("gpt-4o-vs-4o-mini"), dropUnsupported: true)
        #expect(warnings.filter { $0.message.contains("left out") }.map(\.line) == [14, 28, 33])
        let suite = try SuiteLoader.parse(yaml, file: "riddles.yaml")
        #expect(suite.conversations.count == 15)
        let bound = suite.conversations[0].turnChecks[0].first { $0.type == "total-time" }
        #expect(bound?.arguments["max"] == .integer(3))
    }

    /// Numbers in a text check's value are text, as promptfoo compares them.
    @Test func numbersInATextChecksValueAreText() throws {
        let (yaml, _) = try SuiteLoader.importPromptfoo(path: Self.path("structured-outputs-config"), dropUnsupported: true)
        let suite = try SuiteLoader.parse(yaml, file: "s.yaml")
        #expect(
            suite.conversations.map(\.id) == [
                "test-1@with-step-by-step", "test-1@without-step-by-step", "test-2@with-step-by-step", "test-2@without-step-by-step",
            ])
        let checks = suite.conversations[0].turnChecks[0]
        #expect(checks.map(\.type) == ["is-json", "contains-any"], "defaultTest's plain is-json converts; its javascript is dropped")
        #expect(checks[1].arguments["value"] == .list([.string("-3.625"), .string("-29/8")]))
    }

    @Test(arguments: [
        ("amazon-bedrock-converse-system", 13, "'assistant' message is not replayed"),
        ("self-grading", 3, "from file://prompts.txt are not read"),
        ("json-output", 26, "a JSON schema in 'is-json' is not converted"),
    ])
    func whatCannotConvertIsRefusedAtItsLine(_ name: String, _ line: Int, _ phrase: String) {
        let errors = refusal(name)
        #expect(errors.contains { $0.line == line && $0.message.contains(phrase) }, "\(errors)")
    }

    private func refusal(_ name: String) -> [SuiteError] {
        do {
            _ = try SuiteLoader.load(path: Self.path(name))
            Issue.record("\(name) was accepted")
            return []
        } catch {
            return error.errors
        }
    }
}
