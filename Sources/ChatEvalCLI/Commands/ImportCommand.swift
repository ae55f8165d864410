import ArgumentParser

/// `chateval import promptfoo CONFIG`: a promptfoo config written out as a suite to edit;
/// `import multi-if FILE.csv` and `import ifbench FILE.jsonl`: a public multi-turn
/// instruction-following set the user holds, as a suite tagged `multi-turn-if`.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Convert another tool's config or data set into a suite.",
        subcommands: [ImportPromptfooCommand.self, ImportMultiIFCommand.self, ImportIFBenchCommand.self])
}
