import ArgumentParser
import ChatEvalSuites
import ChatEvalWorkspace

/// `chateval import promptfoo CONFIG`: a promptfoo config as a ChatEval suite to edit.
struct ImportPromptfooCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "promptfoo", abstract: "Write a promptfoo config (promptfooconfig.yaml) as a ChatEval suite.",
        discussion: """
            Each test becomes a conversation and each prompt a variant of the suite (named by its \
            label, else its first words), so that the matrix sets the prompts side by side as \
            promptfoo's columns; prompts with different numbers of user messages stay one conversation \
            per prompt × test, with a warning. The suite is named by the config's description. vars \
            become the conversation's variables ({{topic}} becomes {{vars.topic}}), each assert a check \
            of its last turn (word-count {min, max} a length in words). Assertions ChatEval cannot run \
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
