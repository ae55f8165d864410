import ArgumentParser
import ChatEvalSuites
import ChatEvalWorkspace

/// `chateval import ifbench FILE.jsonl`: IFBench's multi-turn JSON Lines as an instruction-following suite.
struct ImportIFBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ifbench", abstract: "Write IFBench's multi-turn JSON Lines (a file you hold) as an instruction-following suite.",
        discussion: """
            One conversation per line, one turn per user message of 'messages'; the line's \
            instruction_id_list and kwargs check the last user turn. IFBench's written assistant \
            answers are not sent (the model answers those turns; a warning says so). Only IFEval's \
            instruction ids have checks: IFBench's own constraints are refused at their line, or \
            left out with --drop-unsupported. Conversations are tagged multi-turn-if and ifbench.

            Examples:
              chateval import ifbench ifbench.jsonl -o suites/mine/ifbench.yaml
                  write it; refused at the lines whose instructions have no check
              chateval import ifbench ifbench.jsonl --drop-unsupported
                  the suite on standard output, those instructions left out
            """)

    @Argument(help: "IFBench's multi-turn JSON Lines file.") var file: String
    @OptionGroup var options: ImportedDataOptions

    func run() throws {
        try ImportedSuiteOutput(input: file, output: options.output, source: "ifbench").write(
            { () throws(SuiteErrors) in try SuiteLoader.importIFBench(path: file, dropUnsupported: options.dropUnsupported) }, header: false
        )
    }
}
