import ChatEvalCore
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// Reads one answers-file line, naming keys as the file spells them: every missing key at once,
/// unknown keys with the nearest known one, wrong types by key. (JSONDecoder stops at the first
/// missing key and names it in Swift's spelling, `promptTokens`; this reads the decoded JSON
/// values itself.)
enum AnswerLineReader {
    enum Outcome {
        case success(AnswerLine)
        case failure(String)
    }

    static let lineKeys = ["conversation", "turn", "answer", "failure", "metrics", "finish_reason"]
    /// The result files' metric names; the derived ones (rates, ratios) are accepted and ignored,
    /// so that a result file's `metrics` object can be pasted as it is.
    static let metricKeys = [
        "prompt_tokens", "reused_tokens", "generated_tokens", "time_to_first_token", "prefill_time", "decode_time",
        "total_time", "inter_token_latencies", "stop_reason", "peak_resident_bytes", "prefill_peak_resident_bytes",
        "decode_peak_resident_bytes", "kv_cache_bytes_in_use",
    ]
    static let derivedKeys = [
        "evaluated_tokens", "prefill_tokens_per_second", "decode_tokens_per_second", "reuse_ratio", "inter_token_latency",
    ]
    /// Names other tools use for the same figures.
    static let foreignKeys = [
        "completion_tokens": "generated_tokens (OpenAI's completion_tokens)", "ttft": "time_to_first_token (seconds)",
        "latency": "total_time (seconds)", "finish_reason": "stop_reason (or finish_reason on the line itself)",
    ]

    static func read(_ data: Data) -> Outcome {
        guard let object = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            return .failure("not a valid answer line (invalid JSON); expected {\"conversation\": ID, \"turn\": N, \"answer\": TEXT}")
        }
        guard case .object(let fields) = object else {
            return .failure(
                "not a valid answer line (a JSON \(object.kind), not an object); "
                    + "expected {\"conversation\": ID, \"turn\": N, \"answer\": TEXT}"
            )
        }
        var problems: [String] = []
        problems += unknownKeys(fields, allowed: lineKeys, what: "")
        let missing =
            ["conversation", "turn"].filter { fields[$0] == nil }
            + (fields["answer"] == nil && fields["failure"] == nil ? ["answer (or failure)"] : [])
        if !missing.isEmpty { problems.append("missing " + missing.map { "'\($0)'" }.joined(separator: ", ")) }

        let conversation = text(fields["conversation"], "conversation", &problems)
        let turn = integer(fields["turn"], "turn", in: 1...1_000_000, &problems)
        let answer = text(fields["answer"], "answer", &problems)
        let failure = fields["failure"].flatMap { readFailure($0, &problems) }
        var stopReason = fields["finish_reason"].flatMap { readStopReason($0, "finish_reason", &problems) }
        var measured: PartialMetrics?
        if let metrics = fields["metrics"] {
            if case .object(let metricFields) = metrics {
                measured = readMetrics(metricFields, &problems)
                if let given = measured?.stopReason {
                    if let stopReason, stopReason != given {
                        problems.append("finish_reason (\(stopReason.rawValue)) and metrics.stop_reason (\(given.rawValue)) disagree")
                    }
                    stopReason = given
                }
            } else {
                problems.append("'metrics' must be an object, found \(metrics.kind)")
            }
        }
        guard problems.isEmpty, let conversation, let turn else { return .failure(problems.joined(separator: "; ")) }
        var partial = measured ?? PartialMetrics()
        partial.stopReason = stopReason
        let readings = partial.isEmpty ? nil : partial.readings
        return .success(
            AnswerLine(
                conversation: conversation, turn: turn, answer: answer, metrics: partial.complete,
                readings: readings, failure: failure))
    }

    private static func unknownKeys(_ fields: [String: JSONValue], allowed: [String], what: String) -> [String] {
        fields.keys.sorted().filter { !allowed.contains($0) }.map { key in
            let near =
                foreignKeys[key].map { "; write \($0)" }
                ?? suggestions(for: key, among: allowed).first.map { "; did you mean '\($0)'?" }
                ?? "; known: \(allowed.joined(separator: ", "))"
            return "unknown key '\(what)\(key)'\(near)"
        }
    }

    private static func text(_ value: JSONValue?, _ key: String, _ problems: inout [String]) -> String? {
        guard let value else { return nil }
        guard case .string(let text) = value else {
            problems.append("'\(key)' must be text, found \(value.kind)")
            return nil
        }
        return text
    }

    private static func integer(_ value: JSONValue?, _ key: String, in range: ClosedRange<Int>, _ problems: inout [String]) -> Int? {
        guard let value else { return nil }
        guard let number = value.numberValue, number.isFinite, number == number.rounded() else {
            problems.append("'\(key)' must be a whole number, found \(value.kind)")
            return nil
        }
        guard number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            problems.append("\(key) must be between \(range.lowerBound) and \(range.upperBound), found \(value.text)")
            return nil
        }
        return Int(number)
    }

    private static func seconds(_ value: JSONValue?, _ key: String, _ problems: inout [String]) -> Double? {
        guard let value else { return nil }
        guard let number = value.numberValue, number.isFinite, number >= 0, number < 1e9 else {
            problems.append("\(key) must be a number of seconds, 0 or more, found \(value.text)")
            return nil
        }
        return number
    }

    private static func readFailure(_ value: JSONValue, _ problems: inout [String]) -> RuntimeFailure? {
        guard case .object(let fields) = value else {
            problems.append("'failure' must be an object {code, message}, found \(value.kind)")
            return nil
        }
        problems += unknownKeys(fields, allowed: ["code", "message"], what: "failure.")
        guard let code = text(fields["code"], "failure.code", &problems) else {
            if fields["code"] == nil { problems.append("missing 'failure.code'") }
            return nil
        }
        return RuntimeFailure(RuntimeFailure.Code(rawValue: code), text(fields["message"], "failure.message", &problems) ?? "")
    }

    /// ChatEval's stop reasons, or OpenAI's `finish_reason` values that mean one of them.
    private static func readStopReason(_ value: JSONValue, _ key: String, _ problems: inout [String]) -> StopReason? {
        guard let name = text(value, key, &problems) else { return nil }
        switch name {
        case "stop": return .endOfGeneration  // OpenAI: a natural end or a stop sequence
        case "length": return .maxTokens
        default:
            if let reason = StopReason(rawValue: name) { return reason }
            let accepted = StopReason.allCases.map(\.rawValue) + ["stop", "length"]
            let why = ["tool_calls", "function_call"].contains(name) ? " (tool calls are out of scope)" : ""
            problems.append("\(key) '\(name)' is not one ChatEval grades\(why); accepted: \(accepted.joined(separator: ", "))")
            return nil
        }
    }

    private static func readMetrics(_ fields: [String: JSONValue], _ problems: inout [String]) -> PartialMetrics {
        problems += unknownKeys(fields, allowed: metricKeys + derivedKeys, what: "metrics.")
        var metrics = PartialMetrics()
        let countLimit = 1 << 40
        metrics.promptTokens = integer(fields["prompt_tokens"], "metrics: prompt_tokens", in: 0...countLimit, &problems)
        metrics.generatedTokens = integer(fields["generated_tokens"], "metrics: generated_tokens", in: 0...countLimit, &problems)
        metrics.reusedTokens = integer(fields["reused_tokens"], "metrics: reused_tokens", in: 0...countLimit, &problems)
        if let reused = metrics.reusedTokens, let prompt = metrics.promptTokens, reused > prompt {
            problems.append("metrics: reused_tokens must be between 0 and prompt_tokens (\(prompt)), found \(reused)")
        }
        metrics.timeToFirstToken = seconds(fields["time_to_first_token"], "metrics: time_to_first_token", &problems)
        metrics.prefillTime = seconds(fields["prefill_time"], "metrics: prefill_time", &problems)
        metrics.decodeTime = seconds(fields["decode_time"], "metrics: decode_time", &problems)
        metrics.totalTime = seconds(fields["total_time"], "metrics: total_time", &problems)
        if let latencies = fields["inter_token_latencies"] {
            if case .array(let items) = latencies {
                let values = items.compactMap { seconds($0, "metrics: inter_token_latencies", &problems) }
                if values.count == items.count { metrics.interTokenLatencies = values }
            } else {
                problems.append("'metrics.inter_token_latencies' must be a list of seconds, found \(latencies.kind)")
            }
        }
        metrics.peakResidentBytes = integer(fields["peak_resident_bytes"], "metrics: peak_resident_bytes", in: 0...(1 << 50), &problems)
        metrics.stopReason = fields["stop_reason"].flatMap { readStopReason($0, "metrics.stop_reason", &problems) }
        return metrics
    }
}

/// How an answers file's messages name a JSON value (Core's `JSONValue`, decoded by JSONDecoder,
/// which unlike JSONSerialization keeps `true` apart from 1).
extension JSONValue {
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "text"
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// The value as it would be written, for messages (numbers as written when whole).
    var text: String {
        switch self {
        case .integer(let value): String(value)
        case .number(let value): value == value.rounded() && abs(value) < 1e18 ? String(Int64(value)) : String(value)
        case .string(let value): "\"\(value)\""
        default: kind
        }
    }

    /// The value of a number, whole or not.
    var numberValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }
}
