import ChatEvalCore
import ChatEvalRunner
import ChatEvalSuites
import Foundation

/// `chateval validate`: suites and the project file checked without running a model.
package enum SuiteValidation {
    /// Checks the project file (`project`) and the suites `paths` names — else the project file's,
    /// else suites/ — printing each as ok, with every problem of every file before failing (exit 2).
    package static func run(paths given: [String]?, project: ProjectSelection) throws {
        let root = Workspace.root()
        let projectFile = try project.load(root: root)
        if let projectFile { say("\(projectFile.source): ok — project file") }
        let paths =
            given ?? projectFile?.suites.map { $0.map { $0.hasPrefix("/") ? $0 : root.appendingPathComponent($0).path } } ?? [
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
