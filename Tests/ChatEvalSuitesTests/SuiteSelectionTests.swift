import ChatEvalSuites
import Testing

/// `--filter`, `--tag` and `suite.yaml#id`: which conversations a run replays, and what a
/// selection that picks nothing says.
@Suite struct SuiteSelectionTests {
    private func suites() throws -> [Suite] {
        [
            try SuiteLoader.parse(
                """
                name: memory
                conversations:
                  - {id: pet-name, tags: [recall], turns: [a]}
                  - {id: trip-city, tags: [recall, slow], turns: [b]}
                  - {id: greeting, turns: [c]}
                """, file: "suites/memory.yaml"),
            try SuiteLoader.parse(
                """
                name: smoke
                conversations:
                  - {id: capitals, tags: [fast], turns: [d]}
                """, file: "suites/smoke.yaml"),
        ]
    }

    private func picked(_ selection: SuiteSelection) throws -> [String] {
        try selection.apply(to: suites()).get().flatMap { suite in suite.conversations.map { "\(suite.name)/\($0.id)" } }
    }

    private func message(_ selection: SuiteSelection) throws -> String? {
        if case .failure(let error) = selection.apply(to: try suites()) { return error.message }
        return nil
    }

    @Test func noSelectionKeepsEverythingInOrder() throws {
        #expect(try picked(SuiteSelection()) == ["memory/pet-name", "memory/trip-city", "memory/greeting", "smoke/capitals"])
    }

    @Test func patternsMatchSuiteConversationOrEitherPartAlone() throws {
        #expect(try picked(SuiteSelection(patterns: ["smoke"])) == ["smoke/capitals"])
        #expect(try picked(SuiteSelection(patterns: ["memory/*-*"])) == ["memory/pet-name", "memory/trip-city"])
        #expect(try picked(SuiteSelection(patterns: ["greet*", "capitals"])) == ["memory/greeting", "smoke/capitals"])
        #expect(try picked(SuiteSelection(patterns: ["*/capitals"])) == ["smoke/capitals"])
    }

    @Test func tagsKeepAnyWantedAndDropEveryExcluded() throws {
        #expect(try picked(SuiteSelection(tags: ["recall"])) == ["memory/pet-name", "memory/trip-city"])
        #expect(try picked(SuiteSelection(tags: ["recall", "fast"])) == ["memory/pet-name", "memory/trip-city", "smoke/capitals"])
        #expect(try picked(SuiteSelection(tags: ["!slow"])) == ["memory/pet-name", "memory/greeting", "smoke/capitals"])
        #expect(try picked(SuiteSelection(tags: ["recall", "!slow"])) == ["memory/pet-name"])
    }

    @Test func idsAfterASuitePathPickThatSuitesConversationsOnly() throws {
        #expect(
            try picked(SuiteSelection(conversationsByPath: ["suites/memory.yaml": ["greeting", "pet-name"]]))
                == ["memory/pet-name", "memory/greeting", "smoke/capitals"])
        #expect(
            try picked(SuiteSelection(patterns: ["memory"], conversationsByPath: ["./suites/memory.yaml": ["greeting"]]))
                == ["memory/greeting"])
    }

    @Test func aSelectionThatPicksNothingSaysWhatThereIs() throws {
        #expect(
            try message(SuiteSelection(patterns: ["nope"], tags: ["x"])) == "no conversation matches --filter nope --tag x; there are: "
                + "memory/pet-name [recall], memory/trip-city [recall, slow], memory/greeting, smoke/capitals [fast]")
        #expect(
            try message(SuiteSelection(conversationsByPath: ["suites/memory.yaml": ["pet-nam"]]))
                == "suites/memory.yaml has no conversation 'pet-nam'; did you mean 'pet-name'?")
        #expect(
            try message(SuiteSelection(conversationsByPath: ["suites/memory.yaml": ["zzzzzzzz"]]))
                == "suites/memory.yaml has no conversation 'zzzzzzzz'; it has: pet-name, trip-city, greeting")
        #expect(
            try message(SuiteSelection(conversationsByPath: ["other.yaml": ["a"]]))
                == "other.yaml#a: the #id form picks conversations of one suite file, and other.yaml is not one")
    }

    @Test func aHashSplitsPathFromIdsUnlessTheFileHasThatName() {
        #expect(
            SuiteSelection.splitPath("suites/memory.yaml#pet-name, trip-city", fileExists: { _ in false }) == (
                "suites/memory.yaml", ["pet-name", "trip-city"]
            ))
        #expect(SuiteSelection.splitPath("suites/memory.yaml", fileExists: { _ in false }) == ("suites/memory.yaml", []))
        #expect(SuiteSelection.splitPath("odd#name.yaml", fileExists: { $0 == "odd#name.yaml" }) == ("odd#name.yaml", []))
    }
}
