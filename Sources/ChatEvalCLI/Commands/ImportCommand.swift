import ArgumentParser
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// `chateval import promptfoo CONFIG`: a promptfoo config written out as a suite to edit.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Convert another tool's config into a suite.",
        subcommands: [ImportPromptfooCommand.self])
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
        guard FileManager.default.fileExists(atPath: config) else {
            throw failure("\(config): no such file\(nearPathHint(config))", .badInput)
        }
        let converted: (yaml: String, warnings: [SuiteError])
        do {
            converted = try SuiteLoader.importPromptfoo(path: config, dropUnsupported: dropUnsupported)
        } catch {
            complain(error.description)
            throw failure("\(error.errors.count) problem(s) in \(config); nothing was written", .badInput)
        }
        if !converted.warnings.isEmpty { complain(converted.warnings.map(\.description).joined(separator: "\n")) }
        let text = "# Converted from \(config) by chateval import promptfoo.\n" + converted.yaml
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
