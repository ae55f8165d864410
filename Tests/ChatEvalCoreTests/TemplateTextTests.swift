import ChatEvalCore
import Testing

@Suite struct TemplateTextTests {
    @Test func placeholdersAreFoundAndFilled() throws {
        let template = try TemplateText("You said {{ turn1.answer }} about {{vars.city}}.")
        #expect(template.placeholders == ["turn1.answer", "vars.city"])
        let text = try template.render { ["turn1.answer": "Lyon", "vars.city": "France"][$0] }
        #expect(text == "You said Lyon about France.")
    }

    @Test func unknownPlaceholderFailsToRender() throws {
        let template = try TemplateText("{{vars.missing}}")
        #expect(throws: TemplateText.RenderError.unknownPlaceholder("vars.missing")) { try template.render { _ in nil } }
    }

    /// A message quoting an earlier one twice doubles with every turn: 7 KB of suite asked for
    /// 8.7 GB and aborted the process. The rendering stops at the limit, before allocating.
    @Test func anExpansionPastTheLimitFailsBeforeItIsBuilt() throws {
        let template = try TemplateText("{{a}}{{a}}{{a}}")
        let big = String(repeating: "x", count: 400_000)
        #expect(throws: TemplateText.RenderError.tooLarge(bytes: 1_200_000, limit: TemplateText.maximumExpandedBytes)) {
            try template.render { _ in big }
        }
        #expect(try template.render(limit: 1_200_000) { _ in big }.utf8.count == 1_200_000)
        // The fewest bytes it expands to, known before rendering, saturating instead of overflowing.
        #expect(template.expandedSizeAtLeast { _ in 5 } == 15)
        #expect(template.expandedSizeAtLeast { _ in Int.max / 2 } == Int.max)
        #expect(template.expandedSizeAtLeast { _ in nil } == 0)
    }

    @Test(arguments: ["open {{ and never closed", "empty {{ }} name"])
    func malformedPlaceholdersAreRejected(_ source: String) {
        #expect(throws: TemplateText.ParseError.self) { try TemplateText(source) }
    }

    @Test func conversationVariablesNameEarlierTurnsFromOne() {
        var variables = ConversationVariables(variables: ["city": "Lyon"])
        variables.record(ReplayedTurn(index: 0, user: "hi", messagesSent: 2, status: .answered, answer: "hello"))
        #expect(variables.value(of: "turn1.answer") == "hello")
        #expect(variables.value(of: "turn1.user") == "hi")
        #expect(variables.value(of: "turn2.answer") == nil)
        #expect(variables.value(of: "vars.city") == "Lyon")
        #expect(variables.value(of: "turn0.answer") == nil)
    }

    @Test func historyWindowKeepsTheSystemPromptAndTheLatestMessages() {
        let script = ConversationScript(id: "c", systemPrompt: "sys", maxMessages: 3, userMessages: [])
        let history: [ChatMessage] = [.user("1"), .assistant("2"), .user("3"), .assistant("4"), .user("5")]
        #expect(script.messagesToSend(history: history) == [.system("sys"), .user("3"), .assistant("4"), .user("5")])
    }

    @Test func suggestionsPreferTheClosestName() {
        #expect(suggestions(for: "max_token", among: ["max_tokens", "max_messages", "seed"]).first == "max_tokens")
        #expect(suggestions(for: "zzzzzz", among: ["seed"]).isEmpty)
        #expect(editDistance("kitten", "sitting") == 3)
    }

    @Test func optionProblemsNameTheField() {
        #expect(GenerationOptions().problems.isEmpty)
        #expect(GenerationOptions(maxTokens: 0).problems.first?.contains("max_tokens") == true)
        #expect(GenerationOptions(topP: 0).problems.first?.contains("top_p") == true)
        #expect(GenerationOptions(stop: [""]).problems.count == 1)
    }
}
