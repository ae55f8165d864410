import ChatEvalCore
import Foundation
internal import Yams

/// Loads and validates suite files.
///
/// The format is documented in suites/README.md and suites/schema/suite.schema.json:
/// ```yaml
/// name: smoke
/// description: A fast end-to-end check.
/// defaults: { system: "...", max_tokens: 48, temperature: 0, seed: 42, stop: ["\n\n"], max_messages: 8, vars: {city: Lyon} }
/// gates: { min_pass_rate: 0.5, metrics: [{metric: ttft, stat: p95, max: 2.0}] }
/// conversations:
///   - id: capital
///     tags: [geography]
///     max_tokens: 24            # any default can be overridden per conversation
///     checks: [{type: ttft, aggregate: max, max: 3}]
///     turns:
///       - user: "I live in {{vars.city}}. What is the capital of France?"
///         checks: [{type: icontains, value: Paris}]
///       - user: "You said: {{turn1.answer}}. Are you sure?"
/// ```
public enum SuiteLoader {
    /// Largest suite file accepted.
    public static let maximumFileBytes = 4 << 20
    /// Deepest nesting of lists and mappings accepted, in the text and once aliases are expanded
    /// (`YAMLBudget`).
    public static let maximumNesting = 64

    /// The suite a promptfoo config converts to, as YAML to edit (`chateval import promptfoo`),
    /// with the warnings about what was left out; throws every problem, located in the config.
    /// The text is checked to load back as the same suite before it is returned.
    public static func importPromptfoo(path: String, dropUnsupported: Bool = false) throws(SuiteErrors) -> (
        yaml: String, warnings: [SuiteError]
    ) {
        let text = try readText(path)
        guard let root = try compose(text, file: path), PromptfooConfig.recognises(root) else {
            throw SuiteErrors([
                SuiteError(
                    .invalidValue, file: path, line: 1, column: 1, "this is not a promptfoo config",
                    hint: "a promptfoo config has prompts beside tests, providers or defaultTest")
            ])
        }
        let reader = YAMLReader(file: path)
        let document = PromptfooConfig.suite(from: root, file: path, reader: reader, dropUnsupported: dropUnsupported)
        if reader.errors.contains(where: { $0.code == .tooComplex }) { throw SuiteErrors(reader.errors) }
        guard SuiteBuilder(reader: reader).suite(from: document, path: path) != nil, reader.errors.isEmpty else {
            throw SuiteErrors(
                reader.errors.isEmpty ? [SuiteError(.invalidValue, file: path, "the config does not convert")] : reader.errors)
        }
        let yaml: String
        do {
            yaml = try Yams.serialize(node: document, width: -1, allowUnicode: true)
        } catch {
            throw SuiteErrors([SuiteError(.invalidValue, file: path, "the converted suite cannot be written as YAML: \(error)")])
        }
        _ = try parse(yaml, file: path)
        return (yaml, reader.warnings)
    }

    /// The composed document of `text` (nil for an empty one); a syntax error is located and
    /// named in plain words.
    private static func compose(_ text: String, file: String) throws(SuiteErrors) -> Node? {
        try YAMLDocument.compose(text, file: file)
    }

    /// Loads the suite at `path`, or throws every problem found in it.
    public static func load(path: String) throws(SuiteErrors) -> Suite {
        let text = try readText(path)
        return try parse(text, file: path)
    }

    /// Parses suite text; `file` names it in errors. The text is held to `YAMLBudget.standard`.
    public static func parse(_ text: String, file: String) throws(SuiteErrors) -> Suite {
        if text.utf8.count > maximumFileBytes {
            throw SuiteErrors([
                SuiteError(.tooComplex, file: file, "the suite has \(text.utf8.count) bytes; suites are limited to \(maximumFileBytes)")
            ])
        }
        if let (line, depth) = excessiveNesting(in: text) {
            throw SuiteErrors([
                SuiteError(.tooComplex, file: file, line: line, "nesting is \(depth) levels deep; suites are limited to \(maximumNesting)")
            ])
        }
        guard let root = try compose(text, file: file) else {
            throw SuiteErrors([
                SuiteError(
                    .missingKey, file: file, line: 1, column: 1, "the file is empty",
                    hint: "a suite needs at least 'name' and 'conversations'")
            ])
        }
        let reader = YAMLReader(file: file)
        // A promptfoo config runs as the suite it converts to; its problems point into it.
        let document = PromptfooConfig.recognises(root) ? PromptfooConfig.suite(from: root, file: file, reader: reader) : root
        // A config too large to convert is refused alone (its unconverted text is no suite to check).
        if reader.errors.contains(where: { $0.code == .tooComplex }) { throw SuiteErrors(reader.errors) }
        let suite = SuiteBuilder(reader: reader).suite(from: document, path: file)
        if var suite, reader.errors.isEmpty {
            suite.text = text
            suite.warnings = reader.warnings.sorted { ($0.line ?? 0, $0.column ?? 0) < ($1.line ?? 0, $1.column ?? 0) }
            return suite
        }
        throw SuiteErrors(reader.errors.isEmpty ? [SuiteError(.invalidValue, file: file, "the suite is not valid")] : reader.errors)
    }

    private static func readText(_ path: String) throws(SuiteErrors) -> String {
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            // A FIFO or a device reports size 0 and would read as an empty suite, or block.
            if let kind = ImportInput.notRegularFile(atPath: path) {
                throw SuiteError(.unreadable, file: path, "is \(kind), not a suite file", hint: "name the suite's YAML file")
            }
            if let size = attributes[.size] as? Int, size > maximumFileBytes {
                throw SuiteError(.tooComplex, file: path, "the file has \(size) bytes; suites are limited to \(maximumFileBytes)")
            }
            // An empty file is not read: swift-corelibs-foundation reads a file of size 0 in 4 KiB
            // chunks and leaks the first (LeakSanitizer, `make fuzz`; see ChatEvalStore's FileContents).
            data = (attributes[.size] as? Int) == 0 ? Data() : try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let error as SuiteError {
            throw SuiteErrors([error])
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
            throw SuiteErrors([
                SuiteError(.unreadable, file: path, "cannot read the file: \(reason)", hint: "check the path and its permissions")
            ])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw SuiteErrors([SuiteError(.notText, file: path, "the file is not UTF-8 text", hint: "save it as UTF-8")])
        }
        if let nul = text.firstIndex(of: "\0") {
            let line = text[..<nul].count(where: { $0 == "\n" }) + 1
            throw SuiteErrors([SuiteError(.notText, file: path, line: line, "the file contains a NUL byte: it looks binary, not YAML")])
        }
        return text
    }

    /// `error` from Yams as a located suite error; `text` (the file's) lets the common mistakes be
    /// named in plain words — a tab indenting a line, a line indented out of step with its
    /// neighbours, an unquoted ": " inside a value — with libyaml's own words kept after them.
    static func syntaxError(_ error: any Error, file: String, text: String? = nil) -> SuiteError {
        guard let yaml = error as? YamlError else {
            return SuiteError(.syntax, file: file, "invalid YAML: \(error)")
        }
        switch yaml {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let detail = context.map { " (\($0.text) at line \($0.mark.line), column \($0.mark.column))" } ?? ""
            let libyaml = "\(problem)\(detail)"
            // Split at any line break: "\r\n" is one Character, so splitting at "\n" alone would
            // leave a CRLF file as one line.
            let lines = text.map { $0.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) } ?? []
            func line(_ number: Int) -> Substring? { number >= 1 && number <= lines.count ? lines[number - 1] : nil }
            // libyaml reports a tab where it stops, which may be the line after the tab's.
            if let tabbed = [mark.line, mark.line - 1, context?.mark.line ?? 0].first(where: {
                line($0)?.prefix(while: { $0 == " " || $0 == "\t" }).contains("\t") == true
            }) {
                return SuiteError(
                    .syntax, file: file, line: tabbed, column: 1, "a tab character indents this line: YAML indents with spaces only",
                    hint: "replace the tab with spaces (libyaml: \(libyaml))")
            }
            if problem.hasPrefix("mapping values are not allowed") {
                return SuiteError(
                    .syntax, file: file, line: mark.line, column: mark.column,
                    "a ': ' where a value was expected: a value containing ': ' must be quoted, or this key is indented too far",
                    hint: "quote the value (\"like: this\") or line the key up with the keys above it (libyaml: \(libyaml))")
            }
            if problem.hasPrefix("did not find expected key") || problem.hasPrefix("did not find expected '-' indicator")
                || problem.hasPrefix("could not find expected ':'")
            {
                return SuiteError(
                    .syntax, file: file, line: mark.line, column: mark.column,
                    "this line is indented out of step with the lines above it",
                    hint: "indent it exactly as far as the keys (or '- ' items) of the block it belongs to (libyaml: \(libyaml))")
            }
            return SuiteError(.syntax, file: file, line: mark.line, column: mark.column, "invalid YAML: \(libyaml)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return SuiteError(
                .duplicate, file: file, line: context.mark.line, column: context.mark.column,
                "duplicate key \(duplicates.map { "'\($0)'" }.joined(separator: ", ")) in one mapping", hint: "each key may appear once")
        case .reader(let problem, let offset, _, _):
            return SuiteError(.notText, file: file, "unreadable text: \(problem)" + (offset.map { " at byte \($0)" } ?? ""))
        default:
            return SuiteError(.syntax, file: file, "invalid YAML: \(yaml)")
        }
    }

    /// The first line where flow brackets or block indentation nest deeper than allowed.
    private static func excessiveNesting(in text: String) -> (line: Int, depth: Int)? {
        var depth = 0
        var lineNumber = 1
        var quote: Character?
        // Lines split on LF by bytes: "\r\n" is one Character, so splitting characters would read
        // a CRLF file as one line.
        for bytes in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let line = Substring(decoding: bytes, as: UTF8.self)
            let indentation = line.prefix { $0 == " " }.count
            // "- - - x" nests one list a marker, with neither indentation nor brackets.
            var markers = 0
            var rest = line.dropFirst(indentation)
            while rest.hasPrefix("- ") {
                markers += 1
                rest = rest.dropFirst(2).drop { $0 == " " }
            }
            if indentation / 2 + markers > maximumNesting { return (lineNumber, indentation / 2 + markers) }
            characters: for character in line {
                if let open = quote {
                    if character == open { quote = nil }
                    continue
                }
                switch character {
                case "\"", "'": quote = character
                case "#": break characters  // the rest of the line is a comment
                case "[", "{":
                    depth += 1
                    if depth > maximumNesting { return (lineNumber, depth) }
                case "]", "}": depth = max(depth - 1, 0)
                default: continue
                }
            }
            quote = nil
            lineNumber += 1
        }
        return nil
    }
}
