import ArgumentParser
import ChatEvalRunner
import ChatEvalWorkspace
import Foundation

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
        // The project file's suites when none are named (and the project file itself is validated).
        let root = Workspace.root()
        let projectFile = try project.load(root: root)
        if let projectFile { say("\(projectFile.source): ok — project file") }
        let paths =
            suites.given ?? projectFile?.suites.map { $0.map { $0.hasPrefix("/") ? $0 : root.appendingPathComponent($0).path } } ?? [
                "suites"
            ]
        for suite in try SuiteFiles.load(paths, validating: true) {
            // Checks that an echo of the prompt passes: valid, so warned about, not refused.
            EchoLint.warnings(suite).forEach { complain($0.description) }
            say(
                "\(suite.path): ok — suite '\(suite.name)', \(suite.conversations.count) conversations"
                    + (suite.variants.isEmpty
                        ? "" : " (\(suite.conversations.count / suite.variants.count) × \(suite.variants.count) variants)")
                    + ", \(suite.turnCount) turns, \(suite.checkCount) checks, "
                    + (suite.gates.isEmpty ? "no gates (every check must pass)" : "gates")
            )
        }
    }
}
