import ArgumentParser
import ChatEvalWorkspace

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate", abstract: "Check suites without running a model.",
        discussion: """
            Prints every problem as file:line:column and exits with 2 if there is any.

            Examples:
              chateval validate                      the project file and its suites
              chateval validate suites/memory.yaml   one suite
            """)

    @OptionGroup var suites: SuiteOptions
    @OptionGroup var project: ProjectOptions

    func run() throws {
        try SuiteValidation.run(paths: suites.given, project: project.selection)
    }
}
