import ChatEvalCore
internal import Yams

/// Reads a `compare:` section, in a project file or a suite:
///
/// ```yaml
/// compare:
///   preset: default            # strict | default | relaxed (project file only)
///   alpha: 0.01                # false-alarm rate of the whole comparison (project file only)
///   confidence: 0.95           # level of the intervals shown (project file only)
///   min_samples: 3             # fewest values per side before a metric can be decided
///   busy_threshold: 0.25       # cores other processes may use during a replay (off: keep every replay)
///   priority: [ttft]           # metrics `run --baseline` keeps measuring while open (project file only)
///   thresholds:                # per metric: a change must pass both bounds to count
///     ttft: {relative: 5%, absolute: 0.002}     # 5% and 2 ms
///     peak-memory: {absolute: 8MiB}
/// ```
struct ComparisonSection {
    let reader: YAMLReader

    /// The keys a suite may set: thresholds only (the false-alarm rate is the whole comparison's).
    static let suiteKeys = ["thresholds", "min_samples"]
    static let projectKeys = ["preset", "alpha", "confidence", "min_samples", "thresholds", "busy_threshold", "priority"]

    func overrides(_ node: Node, allowed: [String]) -> ComparisonOverrides? {
        guard let entries = reader.mapping(node, "compare", allowed: allowed) else { return nil }
        var overrides = ComparisonOverrides()
        if let node = entries["preset"], let name = reader.string(node, "compare.preset") {
            let names = ComparisonSettings.presets.map(\.preset)
            if names.contains(name) {
                overrides.preset = name
            } else {
                reader.fail(
                    .invalidValue, at: node, "unknown comparison preset '\(name)'",
                    hint: suggestions(for: name, among: names).first.map { "did you mean '\($0)'?" }
                        ?? "presets: \(names.joined(separator: ", "))")
            }
        }
        overrides.familyErrorRate = entries["alpha"].flatMap { fraction($0, "compare.alpha", open: true) }
        overrides.confidence = entries["confidence"].flatMap { fraction($0, "compare.confidence", open: true) }
        overrides.minimumSamples = entries["min_samples"].flatMap {
            reader.integer($0, "compare.min_samples", minimum: 2, maximum: 1_000_000)
        }
        if let node = entries["busy_threshold"] {
            if case .scalar(let scalar) = node, scalar.string == "off" {
                overrides.busyThreshold = .infinity
            } else if let value = reader.number(node, "compare.busy_threshold") {
                if value > 0, value.isFinite {
                    overrides.busyThreshold = value
                } else {
                    reader.fail(
                        .invalidValue, at: node, "compare.busy_threshold must be a number of cores above 0, or off",
                        hint: "0.25 leaves out replays during which other processes used a quarter of a core")
                }
            }
        }
        if let node = entries["priority"] { overrides.priority = priority(node) }
        if let thresholds = entries["thresholds"] {
            overrides.thresholds = self.thresholds(thresholds)
        }
        return overrides
    }

    /// `priority: [ttft, decode-tps]`: compared metrics, each once; `[]` for none.
    private func priority(_ node: Node) -> [Metric]? {
        guard let items = reader.sequence(node, "compare.priority") else { return nil }
        var metrics: [Metric] = []
        for item in items {
            guard let name = reader.string(item, "a metric name in compare.priority") else { continue }
            guard let metric = Metric(name: name), Metric.compared.contains(metric) else {
                reader.fail(
                    .invalidValue, at: item, "'\(name)' is not a compared metric, so compare.priority cannot keep a run measuring it",
                    hint: suggestions(for: name, among: Metric.compared.map(\.name)).first.map { "did you mean '\($0)'?" }
                        ?? "compared: \(Metric.compared.map(\.name).joined(separator: ", "))")
                continue
            }
            if metrics.contains(metric) {
                reader.fail(.duplicate, at: item, "'\(name)' is listed twice in compare.priority", hint: "list each metric once")
                continue
            }
            metrics.append(metric)
        }
        return metrics
    }

    private func thresholds(_ node: Node) -> [Metric: ThresholdOverride] {
        guard case .mapping(let mapping) = node else {
            reader.fail(
                .wrongType, at: node,
                "compare.thresholds must be a mapping of metric names to {relative, absolute}, found \(reader.kind(of: node))")
            return [:]
        }
        var result: [Metric: ThresholdOverride] = [:]
        for (key, value) in mapping {
            guard let name = reader.string(key, "a metric name in compare.thresholds") else { continue }
            guard let metric = Metric(name: name) else {
                reader.fail(
                    .unknownKey, at: key, "unknown metric '\(name)' in compare.thresholds",
                    hint: suggestions(for: name, among: Metric.names).first.map { "did you mean '\($0)'?" }
                        ?? "metrics: \(Metric.names.joined(separator: ", "))")
                continue
            }
            guard Metric.compared.contains(metric) else {
                // A threshold nothing reads would be a silent no-op.
                reader.fail(
                    .invalidValue, at: key, "'\(name)' is not compared between runs, so a threshold on it would do nothing",
                    hint: metric == .timePerOutputToken
                        ? "set it on decode-tps (its reciprocal), which is compared"
                        : "compared: \(Metric.compared.map(\.name).joined(separator: ", "))")
                continue
            }
            let what = "compare.thresholds.\(name)"
            guard let bounds = reader.mapping(value, what, allowed: ["relative", "absolute"]) else { continue }
            if bounds.isEmpty { reader.fail(.missingKey, at: value, "\(what) needs 'relative' and/or 'absolute'") }
            let relative = bounds["relative"].flatMap { percentage($0, "\(what).relative") }
            let absolute = bounds["absolute"].flatMap { absoluteBound($0, for: metric, "\(what).absolute") }
            result[metric] = ThresholdOverride(relative: relative, absolute: absolute)
        }
        return result
    }

    /// A number in (0, 1) (exclusive ends when `open`).
    private func fraction(_ node: Node, _ what: String, open: Bool) -> Double? {
        guard let value = reader.number(node, what) else { return nil }
        guard value > 0 && value < 1 else {
            reader.fail(.invalidValue, at: node, "\(what) must be between 0 and 1, exclusive, found \(value)")
            return nil
        }
        return value
    }

    /// `0.05` or `5%`, at least 0.
    private func percentage(_ node: Node, _ what: String) -> Double? {
        if case .scalar(let scalar) = node, scalar.style == .plain, scalar.string.hasSuffix("%") {
            guard case .success(let number)? = NumberLiteral.parse(String(scalar.string.dropLast()).trimmingCharacters(in: .whitespaces)),
                number.doubleValue >= 0
            else {
                reader.fail(.invalidValue, at: node, "\(what) must be a percentage such as 5%, found '\(scalar.string)'")
                return nil
            }
            return number.doubleValue / 100
        }
        guard let value = reader.number(node, what) else { return nil }
        guard value >= 0 else {
            reader.fail(.invalidValue, at: node, "\(what) must be 0 or more, found \(value)")
            return nil
        }
        return value
    }

    /// In the metric's unit; a size such as `8MiB` for memory.
    private func absoluteBound(_ node: Node, for metric: Metric, _ what: String) -> Double? {
        if metric.unit == .bytes, case .scalar(let scalar) = node {
            guard let bytes = ByteSize.parse(scalar.string) else {
                reader.fail(.invalidValue, at: node, "\(what) must be bytes or a size such as 8MiB, found '\(scalar.string.prefix(40))'")
                return nil
            }
            return bytes
        }
        guard let value = reader.number(node, what) else { return nil }
        guard value >= 0 else {
            reader.fail(.invalidValue, at: node, "\(what) must be 0 or more (in \(metric.unit.rawValue)), found \(value)")
            return nil
        }
        return value
    }
}
