import ChatEvalCore
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// One line of an answers file (JSON Lines), for grading without a model:
/// `{"conversation": "capital", "turn": 1, "answer": "Paris.", "metrics": {...}, "failure": {...}}`.
/// `turn` is 1-based; `metrics` (as in result files) and `failure` (`code`, `message`) are optional.
public struct AnswerLine: Decodable, Sendable {
    public var conversation: String
    public var turn: Int
    public var answer: String?
    public var metrics: TurnMetrics?
    public var failure: RuntimeFailure?
}

/// A problem in an answers file, located by line.
public struct AnswerFileError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String
    public var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): error: \(message)" }
}

/// Grades answers given in a file against a suite, as a run would have graded them.
public enum AnswerGrader {
    /// Reads an answers file; every malformed line is an error naming its line.
    public static func read(_ path: String, for suite: Suite) throws(AnswerFileErrors) -> [AnswerLine] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AnswerFileErrors(errors: [AnswerFileError(file: path, message: "cannot read the answers file; check the path")])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw AnswerFileErrors(errors: [AnswerFileError(file: path, message: "the answers file is not UTF-8 text")])
        }
        let decoder = ResultWriter.makeDecoder()
        let known = Dictionary(uniqueKeysWithValues: suite.conversations.map { ($0.id, $0.script.userMessages.count) })
        var lines: [AnswerLine] = []
        var errors: [AnswerFileError] = []
        var seen = Set<String>()
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            guard !raw.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            do {
                let line = try decoder.decode(AnswerLine.self, from: Data(raw.utf8))
                guard let turns = known[line.conversation] else {
                    let near = suggestions(for: line.conversation, among: Array(known.keys)).first.map { "; did you mean '\($0)'?" } ?? ""
                    errors.append(AnswerFileError(file: path, line: number, message: "suite '\(suite.name)' has no conversation '\(line.conversation)'\(near)"))
                    continue
                }
                guard (1...turns).contains(line.turn) else {
                    errors.append(AnswerFileError(file: path, line: number, message: "conversation '\(line.conversation)' has turns 1...\(turns), not \(line.turn)"))
                    continue
                }
                guard line.answer != nil || line.failure != nil else {
                    errors.append(AnswerFileError(file: path, line: number, message: "a line needs an 'answer' or a 'failure'"))
                    continue
                }
                guard seen.insert("\(line.conversation)#\(line.turn)").inserted else {
                    errors.append(AnswerFileError(file: path, line: number, message: "turn \(line.turn) of '\(line.conversation)' is given twice"))
                    continue
                }
                lines.append(line)
            } catch {
                errors.append(AnswerFileError(file: path, line: number, message: "not a valid answer line (\(describe(error))); expected {\"conversation\": ID, \"turn\": N, \"answer\": TEXT}"))
            }
        }
        if !errors.isEmpty { throw AnswerFileErrors(errors: errors) }
        return lines
    }

    /// The suite's conversations that have answers, graded, with the suite's gates.
    public static func grade(_ suite: Suite, answers: [AnswerLine]) -> SuiteRecord {
        var record = SuiteRecord(name: suite.name, path: suite.path)
        for conversation in suite.conversations {
            let given = answers.filter { $0.conversation == conversation.id }
            guard !given.isEmpty else { continue }
            var variables = ConversationVariables(variables: conversation.script.variables)
            var turns: [ReplayedTurn] = []
            for (index, template) in conversation.script.userMessages.enumerated() {
                let user = (try? template.render { variables.value(of: $0) }) ?? template.source
                let turn: ReplayedTurn
                if let line = given.first(where: { $0.turn == index + 1 }) {
                    turn = line.failure.map { ReplayedTurn(index: index, user: user, messagesSent: 0, status: .failed, failure: $0) }
                        ?? ReplayedTurn(index: index, user: user, messagesSent: 0, status: .answered, answer: line.answer, metrics: line.metrics)
                } else {
                    turn = ReplayedTurn(index: index, user: user, messagesSent: 0, status: .skipped, skipReason: "no answer in the answers file")
                }
                turns.append(turn)
                variables.record(turn)
            }
            let graded = ConversationGrader.grade(conversation, turns: turns)
            record.conversations.append(ConversationRecord(
                id: conversation.id, repetition: 1, warmup: false, systemPrompt: conversation.script.systemPrompt,
                options: conversation.script.options, turns: graded.turns, checks: graded.checks))
        }
        record.gates = GateEvaluator.evaluate(suite.gates, conversations: record.conversations)
        return record
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong type at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
        case DecodingError.dataCorrupted: "invalid JSON"
        default: String(describing: error)
        }
    }
}

/// Every problem found in an answers file.
public struct AnswerFileErrors: Error, Sendable, CustomStringConvertible {
    public var errors: [AnswerFileError]
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
