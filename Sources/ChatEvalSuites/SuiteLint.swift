import ChatEvalCore
import ChatEvalGrading

/// Checks and gates that are valid but almost certainly not what was meant: a bound that can
/// never fail (`{type: reuse-ratio, min: 0}`, `generated-tokens` at or above `max_tokens`), or a
/// number whose unit looks mistaken (a `ttft` bound of 2000 is 2000 seconds, not milliseconds).
/// Each finding is a sentence and what to write instead; loading reports them as warnings.
enum SuiteLint {
    struct Finding: Equatable {
        var message: String
        var hint: String
    }

    /// Findings for one check as written (nested checks of `all` and `any` included; a negated
    /// check, or one under `not`, is left alone: its bounds mean the opposite).
    static func findings(_ definition: CheckDefinition, options: GenerationOptions) -> [Finding] {
        findings(type: definition.type, arguments: definition.arguments, options: options)
    }

    private static func findings(type: String, arguments: CheckArgument.Map, options: GenerationOptions) -> [Finding] {
        if type == "all" || type == "any", case .list(let nested)? = arguments["checks"] {
            return nested.flatMap { item -> [Finding] in
                guard case .map(let map) = item, case .string(let nestedType)? = map["type"] else { return [] }
                return findings(type: nestedType, arguments: map, options: options)
            }
        }
        if type == "length" {
            let minimum = number(arguments["min"]) ?? 0
            if minimum <= 0 && arguments["max"] == nil {
                return [
                    Finding(
                        message: "this length check can never fail: every answer has a length of 0 or more",
                        hint: "give it a min above 0 or a max")
                ]
            }
            return []
        }
        guard let metric = Metric(name: type) else { return [] }
        var found: [Finding] = []
        if metric.polarity == .biggerIsBetter, let minimum = number(arguments["min"]), minimum <= 0 {
            found.append(
                Finding(
                    message: "{type: \(type), min: \(decimal(minimum))} can never fail: every \(type) is 0 or more",
                    hint: "raise min to what the turn must reach, or remove the check"))
        }
        if metric == .generatedTokens, let maximum = number(arguments["max"]), maximum >= Double(options.maxTokens) {
            found.append(
                Finding(
                    message:
                        "{type: generated-tokens, max: \(decimal(maximum))} can never fail: max_tokens is \(options.maxTokens), "
                        + "so no answer is longer",
                    hint: "set max below max_tokens, or remove the check"))
        }
        if let finding = unitFinding(
            metric, minimum: number(arguments["min"]), maximum: number(arguments["max"]), bytesWrittenAsText: isText(arguments["max"]))
        {
            found.append(finding)
        }
        return found
    }

    /// Findings for a metric gate.
    static func findings(_ gate: MetricGate) -> [Finding] {
        var found: [Finding] = []
        if gate.metric.polarity == .biggerIsBetter, let minimum = gate.minimum, minimum <= 0, gate.maximum == nil {
            found.append(
                Finding(
                    message:
                        "the gate {metric: \(gate.metric.name), min: \(decimal(minimum))} can never fail: "
                        + "every \(gate.metric.name) is 0 or more",
                    hint: "raise min to what the suite must reach, or remove the gate"))
        }
        if let finding = unitFinding(gate.metric, minimum: gate.minimum, maximum: gate.maximum, bytesWrittenAsText: false) {
            found.append(finding)
        }
        return found
    }

    /// A bound in the wrong unit, by the size of the number: times are seconds, memory is bytes.
    private static func unitFinding(_ metric: Metric, minimum: Double?, maximum: Double?, bytesWrittenAsText: Bool) -> Finding? {
        switch metric.unit {
        case .seconds:
            // Generous: a first token after five minutes, a gap between tokens of ten seconds.
            let suspicious: Double = metric == .interTokenLatencyP50 || metric == .interTokenLatencyP95 ? 10 : 300
            guard let bound = maximum ?? minimum, bound >= suspicious else { return nil }
            return Finding(
                message: "the \(metric.name) bound \(decimal(bound)) means \(duration(bound)): ChatEval's times are in seconds",
                hint: "for \(decimal(bound)) milliseconds write \(decimal(bound / 1000))")
        case .bytes:
            guard !bytesWrittenAsText, let bound = maximum ?? minimum, bound < 1_048_576 else { return nil }
            return Finding(
                message: "the \(metric.name) bound \(decimal(bound)) means \(decimal(bound)) bytes, less than any process",
                hint: "write a size such as \"\(decimal(bound))MB\" or \"\(decimal(bound))MiB\"")
        case .tokensPerSecond, .ratio, .tokens:
            return nil
        }
    }

    private static func number(_ argument: CheckArgument?) -> Double? {
        switch argument {
        case .integer(let value)?: Double(value)
        case .number(let value)?: value
        default: nil
        }
    }

    private static func isText(_ argument: CheckArgument?) -> Bool {
        if case .string? = argument { return true }
        return false
    }

    /// A number as suites write it: no trailing ".0".
    static func decimal(_ value: Double) -> String { DecimalText.plain(value) }

    private static func duration(_ seconds: Double) -> String {
        if seconds >= 7200 { return "\(decimal((seconds / 3600).rounded())) hours" }
        if seconds >= 120 { return "\(decimal((seconds / 60).rounded())) minutes" }
        return "\(decimal(seconds)) seconds"
    }
}
