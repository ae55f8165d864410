import ArgumentParser

/// The options of the data-set importers (`multi-if`, `ifbench`).
struct ImportedDataOptions: ParsableArguments {
    @Option(name: [.short, .customLong("output")], help: "Where to write the suite (default: standard output).")
    var output: String?
    @Flag(help: "Leave out, with a warning each, what ChatEval cannot check (default: refuse the file).")
    var dropUnsupported = false
}
