import ArgumentParser

/// Whether a gate may decide between sides measured differently (`compare`, `run --baseline`);
/// apart from `ComparisonOptions` because `report`, which never gates, has no use for it.
struct MismatchOptions: ParsableArguments {
    @Flag(name: .customLong("allow-mismatch"), help: "Compare and gate even when the sides ran on different machines, builds or settings.")
    var allowMismatch = false
}
