import ChatEvalCore
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// Grades answers given in a file against a suite, as a run would have graded them.
public enum AnswerGrader {
    /// Largest answers file read: 10,000 answers of 4 KiB each, with room to spare.
    public static let maximumFileBytes = 64 << 20

    /// Reads an answers file; every malformed line is an error naming its line.
    public static func read(_ path: String, for suite: Suite) throws(AnswerFileErrors) -> [AnswerLine] {
        // Refused by its size before a byte is read: parsing 100 MB of JSON Lines takes seconds and gigabytes.
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maximumFileBytes {
            throw AnswerFileErrors(errors: [
                AnswerFileError(
                    file: path,
                    message:
                        "the answers file is \(ByteCount.format(size)); at most \(ByteCount.format(maximumFileBytes)) are read — "
                        + "split it by suite or conversation"
                )
            ])
        }
        guard let data = FileContents.read(atPath: path) else {
            throw AnswerFileErrors(errors: [AnswerFileError(file: path, message: "cannot read the answers file; check the path")])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw AnswerFileErrors(errors: [AnswerFileError(file: path, message: "the answers file is not UTF-8 text")])
        }
        return try parse(text, file: path, for: suite)
    }

    /// Parses answers-file text; `file` names it in errors.
    public static func parse(_ text: String, file path: String, for suite: Suite) throws(AnswerFileErrors) -> [AnswerLine] {
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
            let line: AnswerLine
            switch AnswerLineReader.read(Data(raw.utf8)) {
            case .failure(let message):
                errors.append(AnswerFileError(file: path, line: number, message: message))
                continue
            case .success(let read):
                line = read
            }
            guard let turns = known[line.conversation] else {
                let near = suggestions(for: line.conversation, among: Array(known.keys)).first.map { "; did you mean '\($0)'?" } ?? ""
                errors.append(
                    AnswerFileError(
                        file: path, line: number, message: "suite '\(suite.name)' has no conversation '\(line.conversation)'\(near)"))
                continue
            }
            guard (1...turns).contains(line.turn) else {
                errors.append(
                    AnswerFileError(
                        file: path, line: number, message: "conversation '\(line.conversation)' has turns 1...\(turns), not \(line.turn)"))
                continue
            }
            guard seen.insert("\(line.conversation)#\(line.turn)").inserted else {
                errors.append(
                    AnswerFileError(file: path, line: number, message: "turn \(line.turn) of '\(line.conversation)' is given twice"))
                continue
            }
            lines.append(line)
        }
        if !errors.isEmpty { throw AnswerFileErrors(errors: errors) }
        return lines
    }

    /// The suite's conversations that have answers, graded, with the suite's gates. Conversations
    /// are graded on up to `threads` threads at once; the record is the same on any number.
    public static func grade(_ suite: Suite, answers: [AnswerLine], threads: Int = 1) -> SuiteRecord {
        var record = SuiteRecord(of: suite)
        // Grouped once: filtering the whole file for every conversation was quadratic in its size.
        let answersByConversation = Dictionary(grouping: answers, by: \.conversation)
        let answered: [(SuiteConversation, [ReplayedTurn], [MetricReadings?])] = suite.conversations.compactMap { conversation in
            guard let given = answersByConversation[conversation.id], !given.isEmpty else { return nil }
            var variables = ConversationVariables(variables: conversation.script.variables)
            var turns: [ReplayedTurn] = []
            var readings: [MetricReadings?] = []
            for (index, template) in conversation.script.userMessages.enumerated() {
                let user = (try? template.render { variables.value(of: $0) }) ?? template.source
                let turn: ReplayedTurn
                let line = given.first(where: { $0.turn == index + 1 })
                if let line {
                    turn =
                        line.failure.map { ReplayedTurn(index: index, user: user, messagesSent: 0, status: .failed, failure: $0) }
                        ?? ReplayedTurn(
                            index: index, user: user, messagesSent: 0, status: .answered, answer: line.answer, metrics: line.metrics)
                } else {
                    turn = ReplayedTurn(
                        index: index, user: user, messagesSent: 0, status: .skipped, skipReason: "no answer in the answers file")
                }
                turns.append(turn)
                readings.append(line?.readings)
                variables.record(turn)
            }
            return (conversation, turns, readings)
        }
        record.conversations = OrderedConcurrentMap.map(answered, threads: threads) { conversation, turns, readings in
            .graded(conversation, turns: turns, repetition: 1, warmup: false, readings: readings)
        }
        record.gates = GateEvaluator.evaluate(suite.gates, conversations: record.conversations)
        return record
    }
}
