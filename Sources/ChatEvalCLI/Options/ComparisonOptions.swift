import ArgumentParser
import ChatEvalCore
import ChatEvalWorkspace
import Foundation

/// How a comparison decides, from the command line (over the project file and the suites).
struct ComparisonOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Threshold preset: strict (2%), default (5%) or relaxed (10%).", valueName: "name"))
    var preset: String?

    @Option(help: ArgumentHelp("False-alarm rate of the whole comparison, e.g. 0.01.", valueName: "rate"))
    var alpha: Double?

    @Option(
        name: .customLong("threshold"),
        help: ArgumentHelp(
            "A metric's practical threshold: METRIC=RELATIVE[,ABSOLUTE], e.g. "
                + "ttft=10% or ttft=10%,0.005 (absolute in the metric's unit). Repeatable.",
            valueName: "metric=bound"))
    var thresholds: [String] = []

    @Option(
        name: .customLong("busy-threshold"),
        help: ArgumentHelp(
            "Leave out replays during which other processes used this many cores (default 0.25); off compares every replay.",
            valueName: "cores|off"))
    var busyThreshold: String?

    @Option(
        help: ArgumentHelp(
            "What a comparison that could not decide every gated metric, check and turn exits with: "
                + "pass (0, the default) or fail (1, for a CI that accepts only what was shown not worse).",
            valueName: "pass|fail"))
    var undecided: UndecidedPolicy = .pass

    func validate() throws {
        _ = try overrides()
    }

    /// The options as overrides; nonsense values are usage errors naming the option.
    func overrides() throws -> ComparisonOverrides {
        var overrides = ComparisonOverrides()
        if let preset {
            let names = ComparisonSettings.presets.map(\.preset)
            guard names.contains(preset) else {
                throw ValidationError(
                    "--preset \(preset): unknown preset"
                        + (suggestions(for: preset, among: names).first.map { "; did you mean '\($0)'?" }
                            ?? "; presets: \(names.joined(separator: ", "))"))
            }
            overrides.preset = preset
        }
        if let busyThreshold {
            if busyThreshold == "off" {
                overrides.busyThreshold = .infinity
            } else if let value = Double(busyThreshold), value > 0, value.isFinite {
                overrides.busyThreshold = value
            } else {
                throw ValidationError("--busy-threshold \(busyThreshold): a number of cores above 0 (such as 0.25), or off")
            }
        }
        if let alpha {
            guard alpha > 0 && alpha < 1 else { throw ValidationError("--alpha must be between 0 and 1, exclusive (got \(alpha))") }
            overrides.familyErrorRate = alpha
        }
        for text in thresholds {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let metric = Metric(name: parts[0]) else {
                let name = parts.first ?? text
                let hint =
                    suggestions(for: name, among: Metric.names).first.map { "did you mean '\($0)'?" }
                    ?? "metrics: \(Metric.names.joined(separator: ", "))"
                throw ValidationError("--threshold \(text): expected METRIC=RELATIVE[,ABSOLUTE] with a known metric; \(hint)")
            }
            let bounds = parts[1].split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard (1...2).contains(bounds.count), let relative = Self.relative(bounds[0]) else {
                throw ValidationError("--threshold \(text): the relative bound must be a percentage such as 10% or a fraction such as 0.1")
            }
            var bound = ThresholdOverride(relative: relative)
            if bounds.count == 2 {
                let absolute = metric.unit == .bytes ? ByteSize.parse(bounds[1]) : Self.nonNegative(bounds[1])
                guard let absolute else {
                    throw ValidationError(
                        "--threshold \(text): the absolute bound must be a number of 0 or more, in \(metric.unit.rawValue)")
                }
                bound.absolute = absolute
            }
            overrides.thresholds[metric] = bound
        }
        return overrides
    }

    private static func relative(_ text: String) -> Double? {
        if text.hasSuffix("%") { return nonNegative(String(text.dropLast())).map { $0 / 100 } }
        return nonNegative(text)
    }

    private static func nonNegative(_ text: String) -> Double? {
        guard case .success(let number)? = NumberLiteral.parse(text), number.doubleValue >= 0 else { return nil }
        return number.doubleValue
    }
}

extension UndecidedPolicy: ExpressibleByArgument {}
