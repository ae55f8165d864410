import ChatEvalCore
import Foundation
internal import Yams

/// Reads a suite's `slo:` section — latency objectives for `run --concurrency`:
///
/// ```yaml
/// slo:
///   ttft_p95: 1s      # per request TTFT ≤ 1 s counts toward goodput; the level meets it when p95 ≤ 1 s
///   tpot: 50ms        # per request time per output token after the first
///   e2el: 20          # per request total time, in seconds
/// ```
///
/// Keys: `ttft`, `tpot`, `e2el`, each alone or with a percentile suffix `_p50`, `_p90`, `_p95`,
/// `_p99`; one key per metric. Values: seconds as a number, or text with `s` or `ms`.
struct SLOSection {
    let reader: YAMLReader

    static var keys: [String] {
        ServiceLevelObjectives.metrics.flatMap { name, _ in
            [name] + ServiceLevelObjectives.percentiles.map { "\(name)_p\($0)" }
        }
    }

    func objectives(_ node: Node) -> ServiceLevelObjectives? {
        guard let entries = reader.mapping(node, "slo", allowed: Self.keys) else { return nil }
        var objectives: [ServiceLevelObjectives.Objective] = []
        for key in entries.keys.sorted() {
            guard let value = entries[key] else { continue }
            let parts = key.split(separator: "_", maxSplits: 1)
            let name = String(parts[0])
            guard let metric = ServiceLevelObjectives.metrics.first(where: { $0.name == name })?.metric else { continue }
            let percentile = parts.count == 2 ? Int(parts[1].dropFirst()) : nil
            if let other = objectives.first(where: { $0.metric == metric }) {
                reader.fail(
                    .duplicate, at: value,
                    "slo sets \(name) twice (\(other.name) and \(key))",
                    hint: "keep one bound per metric"
                )
                continue
            }
            guard let bound = seconds(value, "slo.\(key)") else { continue }
            objectives.append(ServiceLevelObjectives.Objective(metric: metric, bound: bound, percentile: percentile))
        }
        if objectives.isEmpty, entries.isEmpty {
            reader.fail(.invalidValue, at: node, "slo is empty", hint: "set at least one of ttft, tpot, e2el (e.g. ttft_p95: 1s)")
        }
        return objectives.isEmpty ? nil : ServiceLevelObjectives(objectives)
    }

    /// A duration: a number of seconds, or text ending in `ms` or `s`; more than 0.
    private func seconds(_ node: Node, _ what: String) -> Double? {
        guard case .scalar(let scalar) = node else {
            reader.fail(.wrongType, at: node, "\(what) must be a duration, found \(reader.kind(of: node))", hint: "write 1s, 250ms or 0.25")
            return nil
        }
        let text = scalar.string.trimmingCharacters(in: .whitespaces).lowercased()
        var scale = 1.0
        var digits = Substring(text)
        if text.hasSuffix("ms") {
            scale = 0.001
            digits = digits.dropLast(2)
        } else if text.hasSuffix("s") {
            digits = digits.dropLast()
        }
        guard case .success(let number)? = NumberLiteral.parse(String(digits).trimmingCharacters(in: .whitespaces)),
            number.doubleValue.isFinite, number.doubleValue > 0
        else {
            reader.fail(
                .invalidValue, at: node, "\(what) must be a duration above 0, found '\(scalar.string.prefix(40))'",
                hint: "write 1s, 250ms or 0.25")
            return nil
        }
        return number.doubleValue * scale
    }
}
