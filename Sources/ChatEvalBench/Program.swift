import ArgumentParser
import ChatEvalCompare
import ChatEvalCore
import ChatEvalLlama
import ChatEvalReport
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import ChatEvalToolKit
import Foundation

/// Runs a program to its end and returns its exit status, standard output and error.
enum Program {
    static func run(_ executable: String, _ arguments: [String], in folder: URL? = nil) async throws -> (
        status: Int32, output: String, errors: String
    ) {
        let outcome = try await ProcessRunner.run(URL(fileURLWithPath: executable), arguments, in: folder)
        return (outcome.status, outcome.stdout, outcome.stderr)
    }
}
