import ArgumentParser
import ChatEvalSuites

/// Which conversations of the suites run: by pattern, by tag, by `suite.yaml#id`.
struct SelectionOptions: ParsableArguments {
    @Option(
        name: .customLong("filter"),
        help: ArgumentHelp(
            "Run only conversations whose suite/conversation matches this shell pattern (*, ?); "
                + "without a /, the suite name or the conversation id may match. Repeatable: any pattern.",
            valueName: "pattern"))
    var patterns: [String] = []

    @Option(
        name: .customLong("tag"),
        help: ArgumentHelp("Run only conversations with this tag; !tag leaves them out. Repeatable: any of the tags.", valueName: "tag"))
    var tags: [String] = []

    func selection(_ suites: SuiteOptions) -> SuiteSelection {
        SuiteSelection(patterns: patterns, tags: tags, conversationsByPath: suites.conversationsByPath)
    }
}
