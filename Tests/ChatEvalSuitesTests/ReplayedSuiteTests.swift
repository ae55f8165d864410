import ChatEvalSuites
import Testing

/// `Suite.replayed` is what bisect compares to fold a commit that changes a suite's text but not
/// what it replays: equal for comments, quoting, layout and checks moved to other lines; unequal
/// for anything the model sees or a check grades with.
@Suite struct ReplayedSuiteTests {
    static let base = """
        name: facts
        defaults: {max_tokens: 8, system: "You are a concise assistant."}
        conversations:
          - id: capital
            turns:
              - user: What is the capital of France?
                checks: [{type: icontains, value: Paris}]
          - {id: bees, turns: ["What do bees make?"]}
        """

    static func replayed(_ text: String) throws -> Suite { try SuiteLoader.parse(text, file: "suites/facts.yaml").replayed }

    @Test(arguments: [
        ("a comment", "# a comment\n" + base),
        (
            "block style and other quotes",
            """
            name: 'facts'

            defaults:
              max_tokens: 8
              system: You are a concise assistant.
            conversations:
              - id: capital


                turns:
                  - user: "What is the capital of France?"
                    checks:
                      - type: icontains
                        value: "Paris"
              - id: bees
                turns:
                  - What do bees make?
            """
        ),
    ])
    func anEditOfTheSourceAloneReplaysTheSame(_ edit: String, _ text: String) throws {
        let edited = try SuiteLoader.parse(text, file: "suites/facts.yaml")
        let original = try SuiteLoader.parse(Self.base, file: "suites/facts.yaml")
        #expect(edited != original, "\(edit): the suites as loaded differ (text, lines), else this proves nothing")
        #expect(edited.replayed == original.replayed, "\(edit)")
    }

    @Test(arguments: [
        ("system prompt", base.replacingOccurrences(of: "concise assistant.", with: "concise assistant. Be brief.")),
        ("max_tokens", base.replacingOccurrences(of: "max_tokens: 8", with: "max_tokens: 9")),
        ("a check's argument", base.replacingOccurrences(of: "value: Paris", with: "value: paris")),
        ("a check's type", base.replacingOccurrences(of: "type: icontains", with: "type: contains")),
        ("a user message", base.replacingOccurrences(of: "bees make?", with: "bees make?!")),
        (
            "the conversations' order",
            """
            name: facts
            defaults: {max_tokens: 8, system: "You are a concise assistant."}
            conversations:
              - {id: bees, turns: ["What do bees make?"]}
              - id: capital
                turns:
                  - user: What is the capital of France?
                    checks: [{type: icontains, value: Paris}]
            """
        ),
        ("a conversation's id", base.replacingOccurrences(of: "id: bees", with: "id: honey")),
    ])
    func aChangeOfWhatIsReplayedOrGradedIsNotTheSame(_ change: String, _ text: String) throws {
        #expect(text != Self.base, "\(change): the edit did not apply")
        #expect(try Self.replayed(text) != Self.replayed(Self.base), "\(change)")
    }
}
