import ChatEvalCore

/// Checks on a turn's measurements (`TurnMetrics`), or — with `aggregate` — on the conversation's.
///
/// A limit check reads one metric and compares it with `max` (smaller is better) or `min`
/// (bigger is better). Without `aggregate` it reads this turn's metrics and fails with a clear
/// detail when the turn has none (it failed) or the metric is undefined (decode rate of a
/// one-token answer, memory over HTTP). With `aggregate` (a `Statistic`: `median`, `mean`, `p90`,
/// `p95`, `p99`, `min`, `max`) it reads the metric of every turn of the conversation that defines
/// it, reduces them with that statistic (percentiles interpolate as ChatEvalCore's `Distribution`), and compares the result.
enum PerformanceChecks {
    /// A metric a limit check reads, named and typed by `Metric` (the one vocabulary shared with
    /// gates and comparisons): the bound is `max` when smaller is better, `min` when bigger is.
    struct LimitMetric: Sendable {
        let metric: Metric
        var name: String { metric.name }
        /// Which bound the check's argument sets.
        enum Limit: String, Sendable { case max, min }
        var limit: Limit { metric.polarity == .smallerIsBetter ? .max : .min }
        /// The argument's name in a suite: `max` or `min`.
        var limitKey: String { limit.rawValue }
        var summary: String {
            let bound = limit == .max ? "at most" : "at least"
            return "The \(metric.summary) is \(bound) `\(limitKey)`" + (metric == .peakMemory ? " (\"600MB\", \"1.5GiB\" accepted)." : ".")
        }

        func read(_ readings: MetricReadings) -> Double? { readings[metric] }

        func format(_ value: Double) -> String {
            switch metric.unit {
            case .seconds: DetailNumbers.seconds(value)
            case .tokensPerSecond: "\(DetailNumbers.decimal(value, places: 1)) tokens/s"
            case .ratio: DetailNumbers.decimal(value, places: 3)
            case .bytes: DetailNumbers.bytes(value)
            case .tokens: "\(DetailNumbers.decimal(value, places: 0)) tokens"
            }
        }
    }

    static let limitMetrics: [LimitMetric] = Metric.allCases.map(LimitMetric.init(metric:))

    static let factories: [CheckFactory] =
        limitMetrics.map(limitFactory) + [
            CheckFactory(
                "stop-reason", .performance, "Generation ended for the given reason (eog, max_tokens, stop_string).",
                arguments: [ArgumentInfo("value", "eog | max_tokens | stop_string", required: true, "The expected StopReason.")]
            ) { r throws(CheckDefinitionError) in
                StopReasonCheck(
                    expected: StopReason(rawValue: try r.choice("value", StopReason.allCases.map(\.rawValue))) ?? .endOfGeneration)
            },
            CheckFactory(
                Verdict.failureCheckType, .performance, "The turn failed (with the given RuntimeFailure code, if one is given).",
                arguments: [
                    ArgumentInfo("value", "failure code", required: false, "e.g. context_overflow, timeout; any failure when absent.")
                ]
            ) { r throws(CheckDefinitionError) in
                FailureCheck(code: try r.optionalString("value").map(RuntimeFailure.Code.init(rawValue:)))
            },
        ]

    private static func limitFactory(_ metric: LimitMetric) -> CheckFactory {
        let valueType =
            switch metric.metric {
            case .peakMemory: "bytes (integer) or size string"
            case .generatedTokens: "integer ≥ 0"
            case .reuseRatio, .reuseEfficiency: "number in 0...1"
            default: "number ≥ 0"
            }
        var arguments = [
            ArgumentInfo(
                metric.limitKey, valueType, required: true,
                "\(metric.limit == .max ? "Largest" : "Smallest") value allowed, in \(metric.metric.unit.rawValue).")
        ]
        arguments.append(
            ArgumentInfo(
                "aggregate", Statistic.names.joined(separator: " | "), required: false,
                "Check this statistic over all turns of the conversation instead of this turn."))
        return CheckFactory(metric.name, .performance, metric.summary, arguments: arguments) { r throws(CheckDefinitionError) in
            let limit: Double
            if metric.metric == .peakMemory {
                limit = try byteSize(r, metric.limitKey)
            } else if metric.metric == .generatedTokens {
                limit = Double(try r.integer(metric.limitKey, minimum: 0))
            } else if metric.metric == .reuseRatio || metric.metric == .reuseEfficiency {
                limit = try r.number(metric.limitKey, minimum: 0, maximum: 1)
            } else {
                limit = try r.number(metric.limitKey, minimum: 0)
            }
            let aggregate = r.has("aggregate") ? Statistic(rawValue: try r.choice("aggregate", Statistic.names)) : nil
            return LimitCheck(metric: metric, limit: limit, isMaximum: metric.limit == .max, aggregate: aggregate)
        }
    }

    /// Bytes from an integer or a size string: a number and a unit among B, KB, MB, GB, TB
    /// (powers of 1000) and KiB, MiB, GiB, TiB (powers of 1024), case-insensitive, spaces allowed.
    static func byteSize(_ r: ArgumentReader, _ key: String) throws(CheckDefinitionError) -> Double {
        let value = try r.value(key)
        let expected = "bytes as an integer ≥ 0, or a size like \"600MB\" or \"1.5GiB\""
        switch value {
        case .integer, .number:
            return try r.number(key, minimum: 0)
        case .string(let text):
            guard let bytes = parseByteSize(text), bytes.isFinite else {
                throw r.error(.invalidValue, key, "is \"\(text)\"", expected: expected)
            }
            return bytes
        default:
            throw r.error(.wrongType, key, "is \(value.kindName)", expected: expected)
        }
    }

    static func parseByteSize(_ text: String) -> Double? {
        let trimmed = text.filter { !$0.isWhitespace }
        guard let unitStart = trimmed.firstIndex(where: { $0.isLetter }) else {
            return Double(trimmed).flatMap { $0 >= 0 ? $0 : nil }
        }
        guard let number = Double(trimmed[..<unitStart]), number >= 0, number.isFinite else { return nil }
        let units: [String: Double] = [
            "b": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
            "kib": 1024, "mib": 1_048_576, "gib": 1_073_741_824, "tib": 1_099_511_627_776,
        ]
        guard let scale = units[trimmed[unitStart...].lowercased()] else { return nil }
        return number * scale
    }
}
