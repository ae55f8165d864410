import ChatEvalStore
import ChatEvalSuites
import Foundation

/// Where an imported suite goes, and what is said about it; shared by the import commands.
package struct ImportedSuiteOutput {
    let input: String
    let output: String?
    let source: String

    package init(input: String, output: String?, source: String) {
        self.input = input
        self.output = output
        self.source = source
    }

    /// Prints the warnings and writes the suite (standard output without `-o`); problems are bad
    /// input (exit 2), an unwritable output exit 3.
    package func write(_ convert: () throws(SuiteErrors) -> (yaml: String, warnings: [SuiteError]), header: Bool = true) throws {
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
