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
        return try parse(text, file: path, for: suite)
    }

    /// Parses answers-file text; `file` names it in errors.
    public static func parse(_ text: String, file path: String, for suite: Suite) throws(AnswerFileErrors) -> [AnswerLine] {
        let decoder = ResultWriter.makeDecoder()
        let known = Dictionary(uniqueKeysWithValues: suite.conversations.map { ($0.id, $0.script.userMessages.count) })
        var lines: [AnswerLine] = []
        var errors: [AnswerFileError] = []
        var seen = Set<String>()
        // Split on LF with a CR before it removed: "\r\n" is one Character in Swift, so splitting
        // characters on "\n" would read a CRLF file as a single line.
        for (offset, rawLine) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let raw = Substring(decoding: rawLine.last == UInt8(ascii: "\r") ? rawLine.dropLast() : rawLine[...], as: UTF8.self)
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
                if let metrics = line.metrics, let problem = Self.problem(with: metrics) {
                    errors.append(AnswerFileError(file: path, line: number, message: "metrics: \(problem)"))
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

    /// What is impossible about measurements from a file, or nil: counts and times must be
    /// possible ones, so that no later conversion or rate can trap or mislead.
    static func problem(with metrics: TurnMetrics) -> String? {
        let limit = 1 << 40
        for (name, value) in [("prompt_tokens", metrics.promptTokens), ("generated_tokens", metrics.generatedTokens)] where !(0...limit).contains(value) {
            return "\(name) must be between 0 and \(limit), found \(value)"
        }
        if let reused = metrics.reusedTokens, !(0...metrics.promptTokens).contains(reused) {
            return "reused_tokens must be between 0 and prompt_tokens (\(metrics.promptTokens)), found \(reused)"
        }
        if let peak = metrics.peakResidentBytes, !(0...(1 << 50)).contains(peak) {
            return "peak_resident_bytes must be between 0 and 2^50, found \(peak)"
        }
        let times = [("time_to_first_token", metrics.timeToFirstToken), ("prefill_time", metrics.prefillTime ?? 0),
                     ("decode_time", metrics.decodeTime), ("total_time", metrics.totalTime)] + metrics.interTokenLatencies.map { ("inter_token_latencies", $0) }
        for (name, value) in times where !(value.isFinite && value >= 0 && value < 1e9) {
            return "\(name) must be a number of seconds, 0 or more, found \(value)"
        }
        return nil
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
