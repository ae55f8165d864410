import ArgumentParser
import ChatEvalSuites
import Foundation

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate", abstract: "Check suites without running a model.",
        discussion: "Prints every problem as file:line:column and exits with 2 if there is any.")

    @OptionGroup var suites: SuiteOptions

    func run() throws {
        for suite in try suites.loadSuites() {
            print("\(suite.path): ok — suite '\(suite.name)', \(suite.conversations.count) conversations, \(suite.turnCount) turns, \(suite.checkCount) checks, \(suite.gates.isEmpty ? "no gates" : "gates")")
        }
    }
}
