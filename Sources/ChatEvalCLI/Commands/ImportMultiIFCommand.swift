import ArgumentParser
import ChatEvalSuites
import ChatEvalWorkspace

/// `chateval import multi-if FILE.csv`: Multi-IF's CSV as a multi-turn instruction-following suite.
struct ImportMultiIFCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "multi-if", abstract: "Write Multi-IF's CSV (a file you hold) as a multi-turn instruction-following suite.",
        discussion: """
            One conversation per row, one turn per non-empty turn_K_prompt, checked by \
            turn_K_instruction_id_list with turn_K_kwargs (IFEval's instructions). Conversations \
            are tagged multi-turn-if (the reports add per-turn accuracy, forgetting and survival), \
            multi-if and the row's language. Instructions ChatEval has no check for are refused at \
            their row's line, or left out with --drop-unsupported. The data keeps its own licence.

            Examples:
              chateval import multi-if multi_if.csv -o suites/mine/multi-if.yaml
                  write it; refused at the rows whose instructions have no check
              chateval import multi-if multi_if.csv --drop-unsupported
                  the suite on standard output, those instructions left out
            """)

    @Argument(help: "Multi-IF's CSV file.") var file: String
    @OptionGroup var options: ImportedDataOptions

    func run() throws {
        try ImportedSuiteOutput(input: file, output: options.output, source: "multi-if").write(
            { () throws(SuiteErrors) in try SuiteLoader.importMultiIF(path: file, dropUnsupported: options.dropUnsupported) }, header: false
        )
    }
}
