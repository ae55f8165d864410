import ArgumentParser
import ChatEvalTestKit
import Foundation
import Testing

@testable import ChatEvalCLI

/// Docs that cannot drift (issue 44): every command example in README.md and suites/README.md —
/// each `chateval …` line of a shell block, and each `.build/release/chateval …` of a CI recipe —
/// and every example in a command's `--help`, goes through the argument parser as it stands; an
/// option renamed or removed fails here, naming the file and line. The cheap ones (`validate`,
/// `templates`) also run for real, in the package, and must succeed.
@Suite struct DocumentedCommandsTests {
    struct Example: CustomStringConvertible {
        var file: String
        var line: Int
        var arguments: [String]
        var description: String { "\(file):\(line): chateval \(arguments.joined(separator: " "))" }
    }

    static let documents = ["README.md", "suites/README.md"]

    /// The examples of a Markdown document: in ```sh/bash/shell blocks every line naming
    /// `chateval` (comments dropped, continued lines joined); in ```yaml blocks (CI recipes) the
    /// lines that call the built binary.
    static func examples(inMarkdown text: String, file: String) -> [Example] {
        var found: [Example] = []
        var language: String?
        var pending: (line: Int, text: String)?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw)
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                language = language == nil ? String(line.trimmingCharacters(in: .whitespaces).dropFirst(3)) : nil
                continue
            }
            guard let block = language, ["sh", "bash", "shell", "yaml", "yml"].contains(block) else { continue }
            var joined = (pending?.text ?? "") + line
            let start = pending?.line ?? index + 1
            if joined.hasSuffix("\\") {
                joined.removeLast()
                pending = (start, joined + " ")
                continue
            }
            pending = nil
            let shell = block != "yaml" && block != "yml"
            if let arguments = commandArguments(joined, shell: shell) {
                found.append(Example(file: file, line: start, arguments: arguments))
            }
        }
        return found
    }

    /// The arguments after `chateval` on a line, or nil when it calls no `chateval`. A shell line
    /// names it as `chateval` or by a path; a CI recipe's line by the built binary's path.
    static func commandArguments(_ line: String, shell: Bool) -> [String]? {
        let line = ShellWords.withoutComment(line)
        let found =
            shell
            ? line.firstMatch(of: #/(^|[\s;&|$(])(\S*/)?chateval(\s|$)/#)?.range
            : line.firstMatch(of: #/(^|[\s:-])\.build/release/chateval(\s|$)/#)?.range
        guard let found else { return nil }
        // A GitHub expression `${{ … }}` stands for one word.
        let rest = String(line[found.upperBound...]).replacing(#/\$\{\{[^}]*\}\}/#, with: "X")
        return ShellWords.split(rest)
    }

    /// The examples in every command's `--help` (lines of its discussion starting "chateval ", a
    /// line ending in a backslash continued on the next).
    static func helpExamples(_ command: ParsableCommand.Type, path: [String] = []) -> [Example] {
        let configuration = command.configuration
        let name = path + [configuration.commandName ?? "chateval"]
        let lines = configuration.discussion.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        var found: [Example] = []
        for (index, line) in lines.enumerated() where line.hasPrefix("chateval ") || line == "chateval" {
            var command = line
            var next = index + 1
            while command.hasSuffix("\\"), next < lines.count {
                command = String(command.dropLast()) + " " + lines[next]
                next += 1
            }
            found.append(
                Example(
                    file: "`\(name.joined(separator: " ")) --help`", line: index + 1,
                    arguments: ShellWords.split(String(command.dropFirst(8)))))
        }
        for subcommand in configuration.subcommands { found += helpExamples(subcommand, path: name) }
        return found
    }

    static func documented() throws -> [Example] {
        try documents.flatMap { file in
            let text = try String(contentsOf: CommandLineTests.packageRoot.appendingPathComponent(file), encoding: .utf8)
            return examples(inMarkdown: text, file: file)
        }
    }

    @Test func everyDocumentedCommandParses() throws {
        let examples = try Self.documented() + Self.helpExamples(ChatEval.self)
        // The docs hold dozens (43 in README.md alone when this test was written): a reader that found few is broken.
        #expect(examples.count >= 50, "\(examples.count) examples found")
        for example in examples {
            do {
                _ = try ChatEval.parseAsRoot(example.arguments)
            } catch {
                Issue.record("\(example) no longer parses: \(ChatEval.message(for: error))")
            }
        }
    }

    /// A renamed option is caught: the reader and the parser are not both too lenient to fail.
    @Test func anExampleThatNoLongerParsesIsFound() throws {
        let markdown = "```sh\nchateval run --repeats 2      # misspelt\nchateval compare main \\\n  HEAD --verbose\n```\n"
        let examples = Self.examples(inMarkdown: markdown, file: "x.md")
        #expect(examples.map(\.arguments) == [["run", "--repeats", "2"], ["compare", "main", "HEAD", "--verbose"]])
        #expect(examples.map(\.line) == [2, 3])
        #expect(throws: (any Error).self) { try ChatEval.parseAsRoot(examples[0].arguments) }
        #expect(throws: Never.self) { try ChatEval.parseAsRoot(examples[1].arguments) }
    }

    /// The cheap examples run for real (no model): `validate` and `templates` succeed in the package.
    @Test func theCheapExamplesRunForReal() async throws {
        let cheap = try Self.documented().filter { ["validate", "templates"].contains($0.arguments.first) }
        #expect(cheap.count >= 3)
        for example in cheap {
            let outcome = try await ProcessRunner.run(
                CommandLineTests.binary, example.arguments, environment: [:], in: CommandLineTests.packageRoot)
            #expect(outcome.status == 0, "\(example): exit \(outcome.status)\n\(outcome.stderr)")
        }
    }
}

/// Words of a shell command line as the shell splits them, for the examples the docs give: quotes
/// (single, double) and backslashes honoured; the line ends at an unquoted comment (`#` starting a
/// word), pipe, redirection, `;` or `&&`.
enum ShellWords {
    /// `line` up to an unquoted `#` that starts a word (a comment).
    static func withoutComment(_ line: String) -> String {
        var quote: Character?
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#", previous == " " || previous == "\t" {
                return String(line[..<index])
            }
            previous = character
        }
        return line
    }

    static func split(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var characters = line.makeIterator()
        while let character = characters.next() {
            if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"", let next = characters.next() {
                    word.append(next)
                } else {
                    word.append(character)
                }
                continue
            }
            switch character {
            case "'", "\"":
                quote = character
                inWord = true
            case "\\":
                if let next = characters.next() { word.append(next) }
                inWord = true
            case " ", "\t":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "#" where !inWord, "|", ">", "<", ";", "&":
                if inWord { words.append(word) }
                return words
            default:
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
