import ChatEvalSuites
import Testing

/// What a person coming from promptfoo (or writing in a hurry) is told: every message names what
/// was written and says what to write instead.
@Suite struct SuiteHintsTests {
    /// A one-turn suite whose turn has `check` as its only check (YAML flow or block lines).
    static func suite(check: String, defaults: String = "") -> String {
        """
        name: s
        \(defaults)
        conversations:
          - id: a
            turns:
              - user: hi
                checks:
                  - \(check)
        """
    }

    static func message(_ check: String) -> String {
        rejection(suite(check: check)).map(\.description).joined(separator: "\n")
    }

    @Test(arguments: [
        (
            "latency: 2000",
            "'latency' is promptfoo's name: use ttft (seconds to the first token) or total-time (seconds to the whole answer); "
                + "promptfoo counts milliseconds, ChatEval seconds: `latency: 2000` is {type: total-time, max: 2}"
        ),
        (
            "contains-json: {}",
            "'contains-json' is promptfoo's name: use json (structure and required paths) or is-json, "
                + "with allow-fences: true to accept a ```json block"
        ),
        (
            "{type: llm-rubric, value: polite}",
            "'llm-rubric' is a model-graded promptfoo assertion; not supported: model-graded checks are out of scope"
        ),
        ("{type: javascript, value: 'output.length > 3'}", "'javascript' (promptfoo) is not supported: ChatEval runs no user code"),
        ("{type: python, value: 'len(output) > 3'}", "'python' (promptfoo) is not supported: ChatEval runs no user code"),
        ("not-latency: 3", "'latency' is promptfoo's name"),
        ("finish-reason: length", "use stop-reason with eog, max_tokens or stop_string (OpenAI's stop is eog, length is max_tokens)"),
    ])
    func promptfooNamesSayWhatToWriteInstead(_ check: String, _ hint: String) {
        let text = Self.message(check)
        #expect(text.contains("unknown check type"), "\(text)")
        #expect(text.contains(hint), "\(text)")
    }

    @Test func anUnknownTypeNamesWhatWasWrittenAndTheNearestType() {
        let text = Self.message("{type: contans, value: x}")
        #expect(
            text == "t.yaml:8:20: error: check 1 of turn 1 of conversation 'a': unknown check type \"contans\"; did you mean 'contains'?")
    }

    @Test func noInternalIdentifierReachesTheUser() {
        let text = Self.message("{type: zzzzqqq, value: x}")
        #expect(text.contains("one of the"), "\(text)")
        #expect(!text.contains("CheckCatalogue"), "\(text)")
        #expect(!text.contains("allTypes"), "\(text)")
    }

    @Test(arguments: [
        ("ttft: 2", "'ttft: 2' is not a form ttft takes; write {type: ttft, max: 2} (max: number ≥ 0)"),
        ("decode-tps: 20", "'decode-tps: 20' is not a form decode-tps takes; write {type: decode-tps, min: 20} (min: number ≥ 0)"),
        ("is-json: true", "'is-json: true' is not a form is-json takes; write '- is-json: {}' (or {type: is-json})"),
        ("is-json: false", "'is-json: false' is not a form is-json takes; write '- not-is-json: {}' (or {type: not-is-json})"),
        ("not-refusal: true", "'not-refusal: true' is not a form not-refusal takes; write '- not-refusal: {}' (or {type: not-refusal})"),
        (
            "json: object",
            "'json: object' is not a form json takes; write '- json: {}' (or {type: json}); "
                + "its arguments, all optional: required, root, allow-fences"
        ),
    ])
    func aShortFormThatDoesNotFitSaysTheFormToWrite(_ check: String, _ hint: String) {
        let text = Self.message(check)
        #expect(text.contains(hint), "\(text)")
    }

    /// A short form given a second key (`flags`) shows the long form that works (issue 31).
    @Test func aShortFormWithMoreKeysShowsTheLongForm() {
        let text = Self.message("{regex: \"^p\", flags: i}")
        #expect(
            text.contains(
                "has no 'type'; a short form takes one key; with more, write the long form: {type: regex, value: \"^p\", flags: i}"),
            "\(text)")
        #expect(Self.message("{not-icontains: x, weight: 2}").contains("{type: not-icontains, value: x, weight: 2}"))
    }

    @Test func shortFormsThatFitStillLoad() throws {
        for check in ["icontains: Paris", "not-refusal: {}", "is-json: {}", "regex: '^[A-Z]'"] {
            _ = try SuiteLoader.parse(Self.suite(check: check), file: "t.yaml")
        }
    }

    static func warnings(_ yaml: String) throws -> [String] {
        try SuiteLoader.parse(yaml, file: "t.yaml").warnings.map(\.description)
    }

    @Test(arguments: [
        ("{type: ttft, max: 2000}", "the ttft bound 2000 means 33 minutes: ChatEval's times are in seconds; for 2000 milliseconds write 2"),
        ("{type: total-time, max: 5000}", "the total-time bound 5000 means 83 minutes"),
        (
            "{type: itl-p95, max: 50}",
            "the itl-p95 bound 50 means 50 seconds: ChatEval's times are in seconds; for 50 milliseconds write 0.05"
        ),
        (
            "{type: peak-memory, max: 600}",
            "the peak-memory bound 600 means 600 bytes, less than any process; write a size such as \"600MB\" or \"600MiB\""
        ),
    ])
    func aSuspiciousUnitWarns(_ check: String, _ warning: String) throws {
        let found = try Self.warnings(Self.suite(check: check))
        #expect(found.count == 1 && found[0].contains("warning: conversation 'a': " + warning), "\(found)")
        #expect(found.first?.hasPrefix("t.yaml:8:") == true)
    }

    @Test(arguments: [
        ("{type: reuse-ratio, min: 0}", "{type: reuse-ratio, min: 0} can never fail: every reuse-ratio is 0 or more"),
        ("{type: decode-tps, min: 0}", "{type: decode-tps, min: 0} can never fail"),
        ("{type: generated-tokens, max: 64}", "{type: generated-tokens, max: 64} can never fail: max_tokens is 48, so no answer is longer"),
        ("{type: length, min: 0}", "this length check can never fail"),
        ("{type: all, checks: [{type: icontains, value: x}, {type: reuse-ratio, min: 0}]}", "{type: reuse-ratio, min: 0} can never fail"),
    ])
    func aCheckThatCanNeverFailWarns(_ check: String, _ warning: String) throws {
        let found = try Self.warnings(Self.suite(check: check, defaults: "defaults: {max_tokens: 48}"))
        #expect(found.count == 1 && found[0].contains(warning), "\(found)")
    }

    @Test func gatesThatCanNeverFailOrHaveSuspiciousUnitsWarn() throws {
        let found = try Self.warnings(
            """
            name: s
            gates:
              min_pass_rate: 0
              metrics:
                - {metric: reuse-ratio, min: 0}
                - {metric: ttft, stat: p95, max: 1500}
            conversations:
              - id: a
                turns: [hi]
            """)
        #expect(
            found == [
                "t.yaml:5:7: warning: the gate {metric: reuse-ratio, min: 0} can never fail: every reuse-ratio is 0 or more; "
                    + "raise min to what the suite must reach, or remove the gate",
                "t.yaml:6:7: warning: the ttft bound 1500 means 25 minutes: ChatEval's times are in seconds; "
                    + "for 1500 milliseconds write 1.5",
            ])
    }

    @Test func reasonableBoundsDoNotWarn() throws {
        for check in [
            "{type: ttft, max: 2}", "{type: reuse-ratio, min: 0.5}", "{type: generated-tokens, max: 16}",
            "{type: peak-memory, max: 600MB}", "{type: not-reuse-ratio, min: 0}", "{type: length, min: 1}",
        ] {
            #expect(try Self.warnings(Self.suite(check: check, defaults: "defaults: {max_tokens: 48}")).isEmpty, "\(check)")
        }
    }
}
