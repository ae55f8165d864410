import ChatEvalCore
import ChatEvalRunner
import ChatEvalSuites
import Foundation
import Testing

/// The suites shipped in `suites/` must measure the model, not reward a model that repeats its
/// prompt (a base model echoing the system prompt, a broken template replaying the transcript):
/// every check on an answer fails when the answer is an echo.
@Suite struct ShippedSuitesTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("suites")

    static func shippedSuites() throws -> [Suite] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
        return try names.map { try SuiteLoader.load(path: folder.appendingPathComponent($0).path) }
    }

    @Test func shippedSuitesLoadWithoutWarnings() throws {
        let suites = try Self.shippedSuites()
        #expect(suites.count >= 5)
        #expect(suites.flatMap(\.warnings).map(\.description) == [])
    }

    /// How a model that does not answer might still produce text from its prompt.
    enum Echo: String, CaseIterable, CustomTestStringConvertible {
        /// The user message of the turn, repeated.
        case userMessage
        /// The system prompt, then the user message (a base model continuing its prompt).
        case systemAndUser
        /// The whole transcript so far: system prompt, every earlier message, the user message.
        case transcript

        var testDescription: String { rawValue }

        func answer(system: String?, earlier: [ChatMessage], user: String) -> String {
            switch self {
            case .userMessage: user
            case .systemAndUser: [system, user].compactMap { $0 }.joined(separator: "\n")
            case .transcript: ([system].compactMap { $0 } + earlier.map(\.content) + [user]).joined(separator: "\n")
            }
        }
    }

    @Test(arguments: Echo.allCases)
    func noCheckOnAnAnswerPassesOnAnEcho(_ echo: Echo) throws {
        var graded = 0
        for suite in try Self.shippedSuites() {
            for conversation in suite.conversations {
                let script = conversation.script
                var variables = ConversationVariables(variables: script.variables)
                var history: [ChatMessage] = []
                var turns: [ReplayedTurn] = []
                for (index, template) in script.userMessages.enumerated() {
                    let user = try template.render { variables.value(of: $0) }
                    let answer = echo.answer(system: script.systemPrompt, earlier: history, user: user)
                    let turn = ReplayedTurn(index: index, user: user, messagesSent: history.count + 2, status: .answered, answer: answer)
                    history += [.user(user), .assistant(answer)]
                    variables.record(turn)
                    turns.append(turn)
                }
                // No metrics: checks that read measurements cannot be evaluated (an error, not a
                // pass); every check that reads the answer must fail.
                let (records, conversationChecks) = ConversationGrader.grade(conversation, turns: turns)
                for (turn, verdict) in records.flatMap({ turn in (turn.checks ?? []).map { (turn.index + 1, $0) } })
                    + conversationChecks.map({ (0, $0) })
                {
                    graded += 1
                    #expect(
                        !verdict.passed,
                        "\(suite.name)/\(conversation.id) turn \(turn): \(verdict.check) passes on an echo (\(echo.rawValue)): \(verdict.detail)"
                    )
                }
            }
        }
        #expect(graded >= 30)
    }
}
