import ChatEvalCore
import ChatEvalGrading
import ChatEvalRunner
import ChatEvalSuites
import Foundation
import Testing

/// The multi-turn instruction-following family (suites/multi-turn-if): its shape, and every
/// check it uses passing on a written answer that follows it and failing on one that does not.
@Suite struct MultiTurnIFSuiteTests {
    static let folder = ShippedSuitesTests.folder.appendingPathComponent("multi-turn-if")
    static let patterns: Set<String> = ["global", "accumulating", "revoked", "recall"]

    static func family() throws -> [Suite] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
        return try names.map { try SuiteLoader.load(path: folder.appendingPathComponent($0).path) }
    }

    @Test func atLeastSixtyConversationsOfThreeToEightTurnsInFourTaggedPatterns() throws {
        let conversations = try Self.family().flatMap(\.conversations)
        #expect(conversations.count >= 60)
        for conversation in conversations {
            #expect((3...8).contains(conversation.script.userMessages.count), "\(conversation.id)")
            #expect(conversation.tags.contains(Verdict.instructionFollowingTag), "\(conversation.id)")
            #expect(Set(conversation.tags).intersection(Self.patterns).count == 1, "\(conversation.id): one pattern tag")
            #expect(conversation.tags.count >= 3, "\(conversation.id): an instruction-kind tag")
            #expect(conversation.turnChecks.allSatisfy { !$0.isEmpty }, "\(conversation.id): every turn is checked")
        }
        let perPattern = Dictionary(grouping: conversations) { Set($0.tags).intersection(Self.patterns).first ?? "" }
        #expect(Set(perPattern.keys) == Self.patterns)
        #expect(perPattern.values.allSatisfy { $0.count >= 15 })
    }

    /// A check type with arguments, an answer that follows it and one that does not.
    struct Case: Sendable, CustomStringConvertible {
        var type: String
        var arguments: CheckArgument.Map
        var follows: String
        var breaks: String
        init(_ type: String, _ arguments: CheckArgument.Map = [:], follows: String, breaks: String) {
            (self.type, self.arguments, self.follows, self.breaks) = (type, arguments, follows, breaks)
        }
        var key: String { MultiTurnIFSuiteTests.key(type, arguments) }
        var description: String { key }
    }

    static func key(_ type: String, _ arguments: CheckArgument.Map) -> String {
        CheckDefinition(type: type, arguments: CheckArgument.Map(arguments.fields.sorted { $0.key < $1.key })).instructionText(turn: 0)
    }

    static let english = "The weather is pleasant today and the children are playing in the park near the old river."
    static let spanish = "El tiempo es agradable hoy y los niños están jugando en el parque cerca del viejo río."
    static let words45 = Array(repeating: "Bees carry nectar home and turn it into honey.", count: 5).joined(separator: " ")

    /// One case per check as the family writes it (placeholders aside: see `quotedChecks`).
    static let cases: [Case] = [
        Case("change_case:english_lowercase", follows: english.lowercased(), breaks: english),
        Case("not-change_case:english_lowercase", follows: english, breaks: english.lowercased()),
        Case("change_case:english_capital", follows: english.uppercased(), breaks: english),
        Case("not-change_case:english_capital", follows: english, breaks: english.uppercased()),
        Case("punctuation:no_comma", follows: "Bees make honey from nectar.", breaks: "Bees make honey, wax and more."),
        Case(
            "length_constraints:number_words", ["relation": .string("less than"), "num_words": .integer(25)],
            follows: "Bees make honey from nectar.", breaks: words45),
        Case(
            "length_constraints:number_words", ["relation": .string("less than"), "num_words": .integer(30)],
            follows: "Bees make honey from nectar.", breaks: words45),
        Case(
            "length_constraints:number_words", ["relation": .string("at least"), "num_words": .integer(40)],
            follows: words45, breaks: "Bees make honey from nectar."),
        Case(
            "length_constraints:number_sentences", ["relation": .string("less than"), "num_sentences": .integer(2)],
            follows: "Bees make honey from nectar.", breaks: "Bees make honey. They keep it in combs."),
        Case(
            "length_constraints:number_sentences", ["relation": .string("at least"), "num_sentences": .integer(3)],
            follows: "Bees visit flowers. They carry nectar home. They turn it into honey.", breaks: "Bees make honey."),
        Case(
            "startend:end_checker", ["end_phrase": .string("Any other questions?")],
            follows: "Boil the egg for eight minutes. Any other questions?", breaks: "Boil the egg for eight minutes."),
        Case(
            "not-startend:end_checker", ["end_phrase": .string("Any other questions?")],
            follows: "Boil the egg for eight minutes.", breaks: "Boil the egg for eight minutes. Any other questions?"),
        Case(
            "startend:end_checker", ["end_phrase": .string("That is all.")],
            follows: "Boil the egg for eight minutes. That is all.", breaks: "Boil the egg for eight minutes. Any other questions?"),
        Case("startend:quotation", follows: "\"Cats purr when they are content.\"", breaks: "Cats purr when they are content."),
        Case("not-startend:quotation", follows: "Cats purr when they are content.", breaks: "\"Cats purr when they are content.\""),
        Case("detectable_format:title", follows: "<<Autumn Leaves>>\nThe leaves turn red.", breaks: "Autumn Leaves\nThe leaves turn red."),
        Case(
            "not-detectable_format:title", follows: "Autumn Leaves\nThe leaves turn red.", breaks: "<<Autumn Leaves>>\nThe leaves turn red."
        ),
        Case(
            "detectable_content:postscript", ["postscript_marker": .string("P.S.")],
            follows: "Bring water.\n\nP.S. Bring a hat too.", breaks: "Bring water and a hat."),
        Case(
            "not-detectable_content:postscript", ["postscript_marker": .string("P.S.")],
            follows: "Bring water and a hat.", breaks: "Bring water.\n\nP.S. Bring a hat too."),
        Case(
            "detectable_format:number_bullet_lists", ["num_bullets": .integer(3)],
            follows: "* Water\n* Sunlight\n* Good soil", breaks: "* Water\n* Sunlight"),
        Case(
            "detectable_format:number_bullet_lists", ["num_bullets": .integer(0)],
            follows: "Give them water, sunlight and good soil.", breaks: "* Water\n* Sunlight\n* Good soil"),
        Case(
            "json", ["root": .string("object"), "required": .map(["answer": .string("string")]), "allow-fences": .bool(true)],
            follows: "```json\n{\"answer\": \"Paris is the capital.\"}\n```", breaks: "{\"reply\": \"Paris is the capital.\"}"),
        Case(
            "not-is-json", ["allow-fences": .bool(true)],
            follows: "Paris is the capital.", breaks: "```json\n{\"answer\": \"Paris is the capital.\"}\n```"),
        Case("language:response_language", ["language": .string("es")], follows: spanish, breaks: english),
        Case("language:response_language", ["language": .string("en")], follows: english, breaks: spanish),
        Case("keywords:existence", ["keywords": .list([.string("indeed")])], follows: "It is indeed cold.", breaks: "It is cold."),
        Case(
            "keywords:forbidden_words", ["forbidden_words": .list([.string("indeed")])],
            follows: "It is cold.", breaks: "It is indeed cold."),
        Case(
            "keywords:forbidden_words", ["forbidden_words": .list([.string("very"), .string("really")])],
            follows: "It is cold today.", breaks: "It is really cold today."),
        Case(
            "keywords:frequency", ["keyword": .string("simple"), "frequency": .integer(2), "relation": .string("at least")],
            follows: "A simple plan is a simple win.", breaks: "A simple plan wins."),
        Case(
            "detectable_format:number_highlighted_sections", ["num_highlights": .integer(1)],
            follows: "Water them *every morning* in summer.", breaks: "Water them every morning in summer."),
        Case(
            "not-detectable_format:number_highlighted_sections", ["num_highlights": .integer(1)],
            follows: "Water them every morning in summer.", breaks: "Water them *every morning* in summer."),
        Case("length", ["unit": .string("words"), "min": .integer(1)], follows: "Yes.", breaks: ""),
        Case("not-refusal", follows: "Here is a short answer.", breaks: "I'm sorry, but I cannot help with that."),
    ]

    /// Checks that quote the conversation (the echo guard, the recalled fact), with the quote filled in.
    static let quotedChecks: [Case] = [
        Case("icontains", ["value": .string("heron")], follows: "Your code word is heron.", breaks: "I do not remember it."),
        Case(
            "not-icontains-any", ["value": .list([.string("Please remember my code word: heron."), .string("What was my code word?")])],
            follows: "It was heron.", breaks: "Please remember my code word: heron. Now tell me about museums."),
    ]

    @Test(arguments: cases + quotedChecks)
    func aCheckPassesOnAnAnswerThatFollowsItAndFailsOnOneThatDoesNot(_ example: Case) throws {
        let check = try CheckCatalogue.make(type: example.type, arguments: example.arguments)
        let follows = check.evaluate(GradingSubject(answer: example.follows))
        let breaks = check.evaluate(GradingSubject(answer: example.breaks))
        #expect(follows.passed && follows.error == nil, "\(example): \(follows.detail) \(follows.error ?? "")")
        #expect(!breaks.passed, "\(example): \(breaks.detail)")
    }

    /// Every check the family writes has a case above: a new kind of check needs its own.
    @Test func everyCheckInTheFamilyHasACase() throws {
        let covered = Set(Self.cases.map(\.key))
        let quotedTypes = Set(Self.quotedChecks.map(\.type))
        var missing: [String] = []
        func visit(_ definition: CheckDefinition) {
            if definition.type == "all" || definition.type == "any", case .list(let nested)? = definition.arguments["checks"] {
                for case .map(let map) in nested {
                    guard case .string(let type)? = map["type"] else { continue }
                    visit(CheckDefinition(type: type, arguments: CheckArgument.Map(map.fields.filter { $0.key != "type" })))
                }
                return
            }
            let key = Self.key(definition.type, definition.arguments)
            if key.contains("{{") ? !quotedTypes.contains(definition.type) : !covered.contains(key) { missing.append(key) }
        }
        for suite in try Self.family() {
            for conversation in suite.conversations { conversation.turnChecks.joined().forEach(visit) }
        }
        #expect(Set(missing).sorted() == [])
    }

    /// No check of the family passes on an answer that repeats a user message of the conversation
    /// so far (a base model continuing the transcript does that) or its system prompt.
    @Test func noCheckPassesOnAnEchoOfAnEarlierMessage() throws {
        var graded = 0
        for suite in try Self.family() {
            for conversation in suite.conversations {
                let users = conversation.script.userMessages.map(\.description)
                for turn in users.indices {
                    for echo in users[...turn] + [conversation.script.systemPrompt].compactMap({ $0 }) {
                        let turns = users.indices.map { index in
                            ReplayedTurn(
                                index: index, user: users[index], messagesSent: 2 * index + 1, status: .answered,
                                answer: index == turn ? echo : "Fine.")
                        }
                        let verdicts = ConversationGrader.grade(conversation, turns: turns).turns[turn].checks ?? []
                        graded += verdicts.count
                        let passing = verdicts.filter(\.passed).map(\.check)
                        #expect(passing.isEmpty, "\(suite.name)/\(conversation.id) turn \(turn + 1) passes on the echo \(echo.prefix(40))")
                    }
                }
            }
        }
        #expect(graded > 1000)
    }

    /// A revoked instruction, graded on written answers: capitals obeyed, then revoked; the
    /// answers that go on shouting fail every turn after the revocation.
    @Test func aRevokedInstructionMustStopApplying() throws {
        let suite = try Self.family().first { $0.name == "mtif-revoked" }
        let conversation = try #require(suite?.conversations.first { $0.id == "capitals-revoked-01" })
        let shout = "BOIL IT FOR EIGHT MINUTES AND THEN COOL IT IN WATER."
        let calm = "Boil it for eight minutes and then cool it in water."
        func grade(_ answers: [String]) -> [Bool] {
            let turns = answers.enumerated().map { index, answer in
                ReplayedTurn(
                    index: index, user: conversation.script.userMessages[index].description, messagesSent: 2 * index + 1, status: .answered,
                    answer: answer)
            }
            return ConversationGrader.grade(conversation, turns: turns).turns.map { ($0.checks ?? []).allSatisfy(\.passed) }
        }
        #expect(conversation.script.userMessages.count == 4)
        #expect(grade([shout, shout, calm, calm]) == [true, true, true, true])
        #expect(grade([shout, shout, shout, shout]) == [true, true, false, false])
        #expect(grade([calm, calm, calm, calm]) == [false, false, true, true])
    }

    /// In a conversation tagged multi-turn-if every verdict names its instruction, the same on
    /// every turn, and an IFEval check also records its loose reading; untagged, neither.
    @Test func taggedConversationsRecordTheLooseReadingAndTheInstruction() throws {
        let text = """
            name: t
            conversations:
              - id: c
                tags: [multi-turn-if, global]
                system: End every answer with "Any other questions?"
                turns:
                  - user: Why is the sea salty?
                    checks:
                      - type: all
                        checks:
                          - {type: "startend:end_checker", end_phrase: Any other questions?}
                          - {type: not-icontains, value: "{{turn1.user}}"}
                  - user: Why do cats purr?
                    checks:
                      - type: all
                        checks:
                          - {type: "startend:end_checker", end_phrase: Any other questions?}
                          - {type: not-icontains, value: "{{turn2.user}}"}
                      - {type: icontains, value: purr}
            """
        let suite = try SuiteLoader.parse(text, file: "t.yaml")
        var conversation = try #require(suite.conversations.first)
        let answers = ["Rivers carry salt to it. Any other questions?", "They purr when content. Any other questions?\n(Happy to help.)"]
        let turns = answers.enumerated().map { index, answer in
            ReplayedTurn(
                index: index, user: conversation.script.userMessages[index].description, messagesSent: 2 * index + 1, status: .answered,
                answer: answer)
        }
        let graded = ConversationGrader.grade(conversation, turns: turns).turns
        let first = try #require(graded[0].checks?.first), second = try #require(graded[1].checks)
        #expect(first.passed && first.loose == true)
        // The echo guard names another turn on each turn: it is left out of the instruction.
        #expect(first.instruction == second[0].instruction)
        #expect(first.instruction == "all checks: [{type: \"startend:end_checker\", end_phrase: \"Any other questions?\"}]")
        // Strictly the answer ends with "(Happy to help.)"; loosely, without its last line, it ends with the phrase.
        #expect(!second[0].passed && second[0].loose == true)
        #expect(second[1].loose == nil && second[1].instruction == "icontains value: \"purr\"")

        conversation.tags = ["global"]
        let untagged = ConversationGrader.grade(conversation, turns: turns).turns.flatMap { $0.checks ?? [] }
        #expect(untagged.allSatisfy { $0.loose == nil && $0.instruction == nil })
    }
}
