import ArgumentParser
import ChatEvalStore
import ChatEvalSuites
import ChatEvalWorkspace
import Foundation

/// `chateval import promptfoo CONFIG`: a promptfoo config written out as a suite to edit;
/// `import multi-if FILE.csv` and `import ifbench FILE.jsonl`: a public multi-turn
/// instruction-following set the user holds, as a suite tagged `multi-turn-if`.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Convert another tool's config or data set into a suite.",
        subcommands: [ImportPromptfooCommand.self, ImportMultiIFCommand.self, ImportIFBenchCommand.self])
}

/// Where an imported suite goes, and what is said about it; shared by the import commands.
struct ImportedSuiteOutput {
    let input: String
    let output: String?
    let source: String

    /// Prints the warnings and writes the suite (standard output without `-o`); problems are bad
    /// input (exit 2), an unwritable output exit 3.
    func write(_ convert: () throws(SuiteErrors) -> (yaml: String, warnings: [SuiteError]), header: Bool = true) throws {
        guard FileManager.default.fileExists(atPath: input) else {
            throw failure("\(input): no such file\(nearPathHint(input))", .badInput)
        }
        let converted: (yaml: String, warnings: [SuiteError])
        do {
            converted = try convert()
        } catch {
            complain(error.description)
            throw failure("\(error.errors.count) problem(s) in \(input); nothing was written", .badInput)
        }
        if !converted.warnings.isEmpty { complain(converted.warnings.map(\.description).joined(separator: "\n")) }
        let text = (header ? "# Converted from \(input) by chateval import \(source).\n" : "") + converted.yaml
        guard let output else {
            say(String(text.dropLast(text.hasSuffix("\n") ? 1 : 0)))
            return
        }
        do {
            try AtomicFile.write(Data(text.utf8), to: URL(fileURLWithPath: output))
        } catch {
            throw failure("cannot write \(output): \(error.reason)", .runIncomplete)
        }
        complain("wrote \(output); check it with: chateval validate \(output)")
    }
}

/// The options of the data-set importers (`multi-if`, `ifbench`).
struct ImportedDataOptions: ParsableArguments {
    @Option(name: [.short, .customLong("output")], help: "Where to write the suite (default: standard output).")
    var output: String?
    @Flag(help: "Leave out, with a warning each, what ChatEval cannot check (default: refuse the file).")
    var dropUnsupported = false
}

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

struct ImportPromptfooCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "promptfoo", abstract: "Write a promptfoo config (promptfooconfig.yaml) as a ChatEval suite.",
        discussion: """
            Each prompt × test becomes a conversation, vars its variables ({{topic}} becomes \
            {{vars.topic}}), each assert a check of its last turn. Assertions ChatEval cannot run \
            (model-graded, javascript, python) are refused one by one, at their line, with what to \
            write instead; providers are not read (the model comes from --model or chateval.yaml). \
            `chateval run promptfooconfig.yaml` runs a config without writing the suite.

            Examples:
              chateval import promptfoo promptfooconfig.yaml
                  the suite on standard output
              chateval import promptfoo promptfooconfig.yaml -o suites/mine.yaml
                  write it, then edit it
            """)

    @Argument(help: "The promptfoo config.") var config: String
    @Option(name: [.short, .customLong("output")], help: "Where to write the suite (default: standard output).")
    var output: String?
    @Flag(help: "Leave out, with a warning each, the assertions ChatEval cannot run (default: refuse the config).")
    var dropUnsupported = false

    func run() throws {
        try ImportedSuiteOutput(input: config, output: output, source: "promptfoo").write { () throws(SuiteErrors) in
            try SuiteLoader.importPromptfoo(path: config, dropUnsupported: dropUnsupported)
        }
    }
}
