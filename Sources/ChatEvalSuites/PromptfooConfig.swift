import ChatEvalCore
import ChatEvalGrading
import Foundation
internal import Yams

/// A promptfoo config (`promptfooconfig.yaml`: `prompts`, `providers`, `defaultTest`, `tests`) read
/// as a ChatEval suite, so that `chateval run promptfooconfig.yaml` runs it and `chateval import
/// promptfoo` writes it out. Each test is a conversation; several prompts with as many user messages
/// each are its `variants:` (promptfoo's columns, side by side in the matrix), otherwise each
/// prompt × test is its own conversation. A text prompt is one user turn,
/// a chat prompt (a JSON list of `{role, content}`) gives the system prompt and one turn per user
/// message; `vars` become the conversation's variables (a list value expands into one
/// conversation per item, as promptfoo does), `{{name}}` becomes `{{vars.name}}`, and each
/// `assert` becomes a check of the last turn, `defaultTest`'s first.
///
/// The result is a composed document whose nodes keep the config's positions, so every problem —
/// a model-graded assertion, a `javascript` one, a placeholder no variable fills — is reported at
/// its line in the promptfoo file, one by one, with what to write instead (the check catalogue's
/// promptfoo hints). What ChatEval takes from elsewhere (`providers`: the model comes from
/// `--model` or `chateval.yaml`) is a warning, not an error.
///
/// Written by hand rather than through a library: promptfoo's schema is TypeScript (zod) with no
/// Swift reader, and only the subset above maps onto a suite.
enum PromptfooConfig {
    /// True when `root` is a promptfoo config: `prompts` beside `tests`, `providers` or
    /// `defaultTest`, and no `conversations`.
    static func recognises(_ root: Node) -> Bool {
        guard case .mapping(let mapping) = root else { return false }
        let keys = Set(mapping.keys.compactMap { $0.scalar?.string })
        return keys.contains("prompts") && !keys.contains("conversations")
            && !keys.isDisjoint(with: ["tests", "providers", "defaultTest"])
    }

    /// The suite `root` describes, for `SuiteBuilder`; problems go to `reader`.
    /// `dropUnsupported`: an assertion ChatEval cannot run is left out with a warning (import's
    /// `--drop-unsupported`) instead of being an error.
    static func suite(from root: Node, file: String, reader: YAMLReader, dropUnsupported: Bool = false) -> Node {
        guard case .mapping(let mapping) = root else { return root }
        let config = Config(mapping, reader: reader, dropUnsupported: dropUnsupported)
        var prompts = config.prompts
        var cases = config.tests.enumerated().compactMap {
            testCase($0.element, index: $0.offset + 1, reader: reader, isDefault: false, dropUnsupported: dropUnsupported)
        }
        if cases.isEmpty { cases = [TestCase(mark: root.mark)] }  // promptfoo runs each prompt once without tests
        let mergedCases = cases.map { $0.merged(under: config.defaults) }
        guard fitsConversationLimit(prompts: prompts.count, cases: cases, merged: mergedCases, root: root, reader: reader) else {
            return root
        }
        // promptfoo compares prompts as columns over its tests: several prompts of the same shape
        // (as many user messages each) become `variants:`, one conversation per test running
        // under each. Prompts of different shapes cannot share a conversation's turns and checks.
        let asVariants = prompts.count > 1 && Set(prompts.map(\.users.count)).count == 1
        if prompts.count > 1 && !asVariants {
            reader.warn(
                line: root.mark?.line, column: root.mark?.column,
                "the prompts hold different numbers of user messages, so each prompt × test is its own conversation, "
                    + "not a column of the matrix",
                hint: "give every prompt as many user messages to compare them side by side as variants")
        }
        var variantIds = UniqueNames()
        if asVariants { prompts = prompts.map { Prompt(label: variantIds.claim($0.label), system: $0.system, users: $0.users) } }
        let conversations = self.conversations(
            prompts: prompts, cases: Array(zip(cases, mergedCases)), asVariants: asVariants, reader: reader)
        var pairs: [(Node, Node)] = [(text("name"), text(suiteName(file, description: config.description?.scalar?.string)))]
        if let description = config.description { pairs.append((text("description"), description)) }
        if asVariants {
            let variants = prompts.map { prompt -> Node in
                var entries: [(Node, Node)] = [(text("id"), text(prompt.label))]
                if let system = prompt.system { entries.append((text("system"), system)) }
                entries.append((text("turns"), .sequence(Node.Sequence(prompt.users, .implicit, .block, prompt.users.first?.mark))))
                return .mapping(Node.Mapping(entries, .implicit, .block, prompt.users.first?.mark))
            }
            pairs.append((text("variants"), .sequence(Node.Sequence(variants, .implicit, .block, root.mark))))
        }
        pairs.append((text("conversations"), .sequence(Node.Sequence(conversations, .implicit, .block, root.mark))))
        return .mapping(Node.Mapping(pairs, .implicit, .block, root.mark))
    }

    /// A config's top level as read: its prompts, tests (not yet converted), default test and
    /// description; providers and anything else warned about and left out.
    private struct Config {
        var prompts: [Prompt] = []
        var tests: [Node] = []
        var defaults: TestCase?
        var description: Node?

        init(_ mapping: Node.Mapping, reader: YAMLReader, dropUnsupported: Bool) {
            for (key, value) in mapping {
                guard let name = key.scalar?.string else { continue }
                switch name {
                case "description": description = value
                case "prompts": prompts = PromptfooConfig.prompts(value, reader: reader)
                case "tests":
                    if let path = value.scalar?.string {
                        PromptfooConfig.refuseFile(path, at: value, "tests", reader: reader)
                    } else {
                        tests = reader.sequence(value, "tests") ?? []
                    }
                case "defaultTest":
                    defaults = PromptfooConfig.testCase(value, index: 0, reader: reader, isDefault: true, dropUnsupported: dropUnsupported)
                case "providers":
                    reader.warn(
                        line: key.mark?.line, column: key.mark?.column,
                        "promptfoo's providers are not read: ChatEval runs the model of --model or chateval.yaml",
                        hint: "for a served model: --runtime openai --base-url URL --model-name NAME; several --model run side by side")
                default:
                    reader.warn(
                        line: key.mark?.line, column: key.mark?.column, "promptfoo's '\(name)' is not converted and is left out",
                        hint: "a suite holds prompts, variables and checks; see README, \"Coming from promptfoo\"")
                }
            }
        }
    }

    /// True when every prompt running every test over every combination of its list values makes
    /// at most `maximumConversations` (counted without overflow, before any is built); else the
    /// test (or the config) past it is an error and false.
    private static func fitsConversationLimit(prompts: Int, cases: [TestCase], merged: [TestCase], root: Node, reader: YAMLReader)
        -> Bool
    {
        let perPrompt = merged.reduce(0) { total, test in
            let (sum, overflow) = total.addingReportingOverflow(test.expansions)
            return overflow ? Int.max : sum
        }
        let total = product(max(prompts, 1), perPrompt)
        guard total > maximumConversations else { return true }
        if let test = merged.first(where: { $0.expansions > maximumConversations }) {
            reader.fail(
                .tooComplex, at: test.mark.map { .scalar(Node.Scalar("", .implicit, .plain, $0)) },
                "the list values of this test's vars expand into \(TestCase.count(test.expansions)) "
                    + "conversations; at most \(maximumConversations) in all",
                hint: "split the lists over several tests")
        } else {
            reader.fail(
                .tooComplex, at: root,
                "the config expands into \(TestCase.count(total)) conversations (\(max(prompts, 1)) prompt(s) × "
                    + "\(cases.count) test(s) × their list values); at most \(maximumConversations)",
                hint: "split the config, or run fewer prompts or tests at once")
        }
        return false
    }

    /// The conversations of every prompt × test (each test as written and merged over the
    /// defaults) × expansion of its list values, with unique ids; under `asVariants` only the
    /// first prompt's, which the variants share. A variable a test leaves unset renders empty,
    /// with a warning.
    private static func conversations(prompts: [Prompt], cases: [(test: TestCase, merged: TestCase)], asVariants: Bool, reader: YAMLReader)
        -> [Node]
    {
        var allVariables: [String] = []
        for name in prompts.flatMap(\.variables) where !allVariables.contains(name) { allVariables.append(name) }
        var conversations: [Node] = []
        var used = UniqueNames()
        for (promptIndex, prompt) in prompts.enumerated() {
            for (test, merged) in cases {
                // promptfoo renders a variable the test does not set as empty text; so does the conversation.
                let unset = prompt.variables.filter { name in !merged.variables.contains { $0.name == name } }
                if !unset.isEmpty {
                    reader.warn(
                        line: merged.mark?.line, column: merged.mark?.column,
                        "\(test.label) does not set \(unset.map { "'\($0)'" }.joined(separator: ", ")), which prompt \(prompt.label) uses: "
                            + "promptfoo renders it empty, and so does this conversation",
                        hint: unset.compactMap { name in
                            suggestions(for: name, among: merged.variables.map(\.name)).first.map { "did you mean '\($0)'?" }
                        }.first ?? "set it under the test's vars if the prompt needs it")
                }
                // Under variants, the first prompt's pass builds the conversations the others share.
                if asVariants && promptIndex > 0 { continue }
                let unsetByAny = (asVariants ? allVariables : prompt.variables).filter { name in
                    !merged.variables.contains { $0.name == name }
                }
                let empty = unsetByAny.map { ($0, Node.scalar(Node.Scalar("", Tag(.str), .doubleQuoted, merged.mark))) }
                for (expansion, variables) in merged.expandedVariables().enumerated() {
                    var id = (prompts.count > 1 && !asVariants ? "\(prompt.label)-" : "") + test.label
                    if merged.expansions > 1 { id += "-\(expansion + 1)" }
                    id = used.claim(id)
                    // A variant gives each prompt's system prompt; the conversation has none of its own.
                    let shared = asVariants ? Prompt(label: prompt.label, system: nil, users: prompt.users) : prompt
                    conversations.append(
                        conversation(id: id, prompt: shared, test: merged, variables: variables + empty))
                }
            }
        }
        return conversations
    }

    // MARK: Prompts

    struct Prompt {
        var label: String
        var system: Node?
        /// The user messages, each a converted template.
        var users: [Node]

        /// The names of the variables its templates use, in order of first use.
        var variables: [String] {
            var names: [String] = []
            for node in [system].compactMap({ $0 }) + users {
                var rest = Substring(node.scalar?.string ?? "")
                while let open = rest.firstRange(of: "{{vars."), let close = rest[open.upperBound...].firstRange(of: "}}") {
                    let name = String(rest[open.upperBound..<close.lowerBound])
                    if !names.contains(name) { names.append(name) }
                    rest = rest[close.upperBound...]
                }
            }
            return names
        }
    }

    private static func prompts(_ node: Node, reader: YAMLReader) -> [Prompt] {
        let items: [Node]
        if case .scalar = node {
            items = [node]
        } else {
            items = reader.sequence(node, "prompts") ?? []
        }
        return items.enumerated().compactMap { index, item in prompt(item, label: "p\(index + 1)", reader: reader) }
    }

    /// A prompt as read: named by its `label` (or `id`), else by its first words ("answer-in-at-most-five"),
    /// which is what promptfoo's columns show, else `label` ("p2").
    private static func prompt(_ node: Node, label fallback: String, reader: YAMLReader) -> Prompt? {
        var label: String?
        var raw = node
        if case .mapping(let mapping) = node {
            guard let value = mapping["raw"] ?? mapping["content"] else {
                reader.fail(
                    .missingKey, at: node, "a promptfoo prompt given as a mapping needs 'raw' (its text)",
                    hint: "write the prompt's text under raw:, or as a plain string")
                return nil
            }
            raw = value
            if let given = (mapping["label"] ?? mapping["id"])?.scalar?.string { label = slug(given, fallback: fallback) }
            for (key, _) in mapping where !["raw", "content", "label", "id"].contains(key.scalar?.string ?? "") {
                reader.warn(
                    line: key.mark?.line, column: key.mark?.column,
                    "the prompt's '\(key.scalar?.string ?? "")' is not converted and is left out",
                    hint: "generation options go under the suite's defaults (max_tokens, temperature, stop...)")
            }
        }
        guard let text = raw.scalar?.string else {
            reader.fail(.wrongType, at: raw, "a promptfoo prompt must be text (a template, or a JSON list of chat messages)")
            return nil
        }
        if text.hasPrefix("file://") {
            refuseFile(text, at: raw, "prompts", reader: reader)
            return nil
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("["), let messages = chatMessages(trimmed) else {
            let named = label ?? firstWords(text) ?? fallback
            return template(text, at: raw, reader: reader).map { Prompt(label: named, system: nil, users: [$0]) }
        }
        // A chat prompt is told apart by its system message where it has one, else by its first user message.
        let distinctive = (messages.first { $0.role == "system" } ?? messages.first { $0.role == "user" })?.content ?? ""
        let named = label ?? firstWords(distinctive) ?? fallback
        var system: Node?
        var users: [Node] = []
        for (role, content) in messages {
            switch role {
            case "system":
                system = template(content, at: raw, reader: reader)
            case "user":
                if let user = template(content, at: raw, reader: reader) { users.append(user) }
            default:
                reader.fail(
                    .invalidValue, at: raw,
                    "a chat prompt's '\(role)' message is not replayed: ChatEval's turns are answered by the model itself",
                    hint: "keep the system and user messages; each user message becomes a turn")
            }
        }
        guard !users.isEmpty else {
            reader.fail(.invalidValue, at: raw, "this chat prompt has no user message", hint: "add {\"role\": \"user\", \"content\": ...}")
            return nil
        }
        return Prompt(label: named, system: system, users: users)
    }

    /// The first words of a prompt as an id, cut at a word (at most five words, 32 characters):
    /// "Answer in at most five words: {{question}}" → "answer-in-at-most-five"; nil when it has none.
    static func firstWords(_ text: String) -> String? {
        let words = text.split { !($0.isLetter || $0.isNumber) || !$0.isASCII }.map { $0.lowercased() }
        var kept: [String] = []
        for word in words.prefix(5) {
            guard (kept + [word]).joined(separator: "-").count <= 32 else { break }
            kept.append(word)
        }
        if kept.isEmpty, let first = words.first { kept = [String(first.prefix(32))] }
        return kept.isEmpty ? nil : kept.joined(separator: "-")
    }

    /// `[{"role": ..., "content": ...}, ...]`, or nil when the text is not such a list.
    private static func chatMessages(_ text: String) -> [(role: String, content: String)]? {
        guard let list = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], !list.isEmpty else {
            return nil
        }
        let messages = list.compactMap { item -> (String, String)? in
            guard let role = item["role"] as? String, let content = item["content"] as? String else { return nil }
            return (role, content)
        }
        return messages.count == list.count ? messages : nil
    }

    /// promptfoo's Nunjucks `{{ name }}` as ChatEval's `{{vars.name}}`; filters and tags are refused.
    private static func template(_ text: String, at node: Node, reader: YAMLReader) -> Node? {
        if text.contains("{%") {
            reader.fail(
                .invalidValue, at: node, "Nunjucks tags ({% ... %}) are not converted",
                hint: "ChatEval fills {{vars.NAME}}, {{turnN.answer}} and {{turnN.user}}; write each variant as its own prompt")
            return nil
        }
        var converted = ""
        var rest = Substring(text)
        // The standard library's `firstRange(of:)`, not Foundation's `range(of:)`: on Linux that
        // bridges the whole rest of the text at every call, and a prompt of 6,600 placeholders
        // (found by `make fuzz`) took 9 s to convert.
        while let open = rest.firstRange(of: "{{") {
            converted += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstRange(of: "}}") else {
                converted += rest[open.lowerBound...]
                rest = ""
                break
            }
            let inside = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            if inside.contains("|") {
                reader.fail(
                    .invalidValue, at: node, "the Nunjucks filter in {{\(inside)}} is not converted",
                    hint:
                        "put the value as it should appear in vars, "
                        + "and write {{vars.\(inside.split(separator: "|")[0].trimmingCharacters(in: .whitespaces))}}"
                )
            }
            let isName =
                !inside.isEmpty && inside.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !(inside.first?.isNumber ?? true)
            converted += isName ? "{{vars.\(inside)}}" : "{{\(inside)}}"
            rest = rest[close.upperBound...]
        }
        converted += rest
        return .scalar(Node.Scalar(converted, .implicit, text.contains("\n") ? .literal : .any, node.mark))
    }

    // MARK: Tests

    struct TestCase {
        var label = "test"
        var mark: Mark?
        var variables: [(name: String, value: Node)] = []
        var asserts: [Node] = []

        /// This test over `defaults`: its variables win, `defaults`' asserts come first.
        func merged(under defaults: TestCase?) -> TestCase {
            guard let defaults else { return self }
            var merged = self
            let own = Set(variables.map(\.name))
            merged.variables = defaults.variables.filter { !own.contains($0.name) } + variables
            merged.asserts = defaults.asserts + asserts
            return merged
        }

        /// How many conversations the list values expand into (their product; `Int.max` where it
        /// would overflow, which no cap admits).
        var expansions: Int {
            variables.reduce(1) { count, variable in
                guard case .sequence(let items) = variable.value else { return count }
                return PromptfooConfig.product(count, max(items.count, 1))
            }
        }

        /// A count as people read it: "more than 9.2 quintillion" for a product that overflowed.
        static func count(_ value: Int) -> String {
            value == Int.max ? "more than \(Int.max)" : String(value)
        }

        /// One variable mapping per combination of list values (a single one without lists). The
        /// caller has capped `expansions` (`suite(from:)` caps the whole config's product).
        func expandedVariables() -> [[(String, Node)]] {
            var combinations: [[(String, Node)]] = [[]]
            for (name, value) in variables {
                let choices: [Node]
                if case .sequence(let items) = value {
                    choices = Array(items)
                } else {
                    choices = [value]
                }
                combinations = combinations.flatMap { partial in choices.map { partial + [(name, $0)] } }
            }
            return combinations
        }
    }

    private static func testCase(_ node: Node, index: Int, reader: YAMLReader, isDefault: Bool, dropUnsupported: Bool) -> TestCase? {
        let what = isDefault ? "defaultTest" : "test \(index)"
        guard case .mapping(let mapping) = node else {
            if let path = node.scalar?.string, path.hasPrefix("file://") {
                refuseFile(path, at: node, what, reader: reader)
            } else {
                reader.fail(.wrongType, at: node, "\(what) must be a mapping (description, vars, assert)")
            }
            return nil
        }
        var test = TestCase(label: "test-\(index)", mark: node.mark)
        for (key, value) in mapping {
            guard let name = key.scalar?.string else { continue }
            switch name {
            case "description":
                if let text = value.scalar?.string { test.label = slug(text, fallback: test.label) }
            case "vars":
                guard case .mapping(let variables) = value else {
                    if let path = value.scalar?.string, path.hasPrefix("file://") {
                        refuseFile(path, at: value, "vars", reader: reader)
                    } else {
                        reader.fail(.wrongType, at: value, "vars of \(what) must be a mapping of names to values")
                    }
                    continue
                }
                for (variable, content) in variables {
                    guard let variableName = variable.scalar?.string else { continue }
                    if case .mapping = content {
                        reader.fail(
                            .wrongType, at: content, "var '\(variableName)' holds a mapping; ChatEval's variables are text",
                            hint: "give it the text the prompt should show")
                        continue
                    }
                    if let path = content.scalar?.string, path.hasPrefix("file://") {
                        refuseFile(path, at: content, "var '\(variableName)'", reader: reader)
                        continue
                    }
                    test.variables.append((variableName, content))
                }
            case "assert":
                test.asserts = (reader.sequence(value, "assert of \(what)") ?? []).compactMap {
                    check($0, reader: reader, dropUnsupported: dropUnsupported)
                }
            case "metadata", "options":
                reader.warn(line: key.mark?.line, column: key.mark?.column, "\(what)'s \(name) is not converted and is left out")
            default:
                reader.warn(
                    line: key.mark?.line, column: key.mark?.column, "\(what)'s '\(name)' is not converted and is left out",
                    hint: "a test converts its description, vars and assert")
            }
        }
        return test
    }

    /// One promptfoo assertion as a check: `type`, `value`, `threshold` and `weight` carried over
    /// (placeholders converted), a few renamed types rewritten; a type ChatEval does not have is
    /// refused here, once, with the check catalogue's promptfoo hint.
    private static func check(_ node: Node, reader: YAMLReader, dropUnsupported: Bool) -> Node? {
        guard case .mapping(let mapping) = node else {
            reader.fail(.wrongType, at: node, "an assertion must be a mapping (type, value)")
            return nil
        }
        guard let typeNode = mapping["type"], let type = typeNode.scalar?.string else {
            reader.fail(.missingKey, at: node, "an assertion needs its type", hint: "for example {type: icontains, value: Paris}")
            return nil
        }
        var keys: [String: Node] = [:]
        for (key, _) in mapping { if let name = key.scalar?.string { keys[name] = key } }
        func refuse(_ at: Node, _ message: String, hint: String) -> Node? {
            if dropUnsupported {
                reader.warn(line: at.mark?.line, column: at.mark?.column, message + "; left out", hint: hint)
            } else {
                reader.fail(.invalidValue, at: at, message, hint: hint + "; or leave it out: chateval import promptfoo --drop-unsupported")
            }
            return nil
        }
        if let (keyNode, name) = unconvertedKey(mapping, reader: reader) {
            return refuse(
                keyNode, "an assertion's '\(name)' is not converted",
                hint: "ChatEval runs no transforms or graders: write the check on the answer itself")
        }
        if type == "is-json" || type == "contains-json", mapping["value"] != nil {
            return refuse(
                keys["value"] ?? typeNode, "a JSON schema in '\(type)' is not converted",
                hint:
                    "ChatEval's json check names required paths and their types ({type: json, required: {name: string}}); "
                    + "is-json checks the syntax"
            )
        }
        var pairs = rewritten(type, typeNode: typeNode, mapping: mapping, keys: keys)
        if pairs.isEmpty {
            do {
                try CheckCatalogue.validate(type: type)
            } catch  where error.kind == .unknownType {
                return refuse(
                    typeNode, "assertion '\(type)' cannot be converted: \(error.hint ?? "ChatEval has no such check")",
                    hint: "see README, \"Coming from promptfoo\"")
            } catch {
                // Missing arguments are reported where the check is built, with the conversation.
            }
            pairs = carriedOver(type, typeNode: typeNode, mapping: mapping, keys: keys, reader: reader)
        }
        if let weight = mapping["weight"] { pairs.append((text("weight", at: keys["weight"]), weight)) }
        return .mapping(Node.Mapping(pairs, .implicit, .flow, node.mark))
    }

    /// The first key of an assertion that is not converted (its name), after warning that each
    /// `metric` before it is left out; nil when every key converts.
    private static func unconvertedKey(_ mapping: Node.Mapping, reader: YAMLReader) -> (Node, String)? {
        for (keyNode, _) in mapping {
            guard let name = keyNode.scalar?.string, !["type", "value", "threshold", "weight"].contains(name) else { continue }
            guard name == "metric" else { return (keyNode, name) }
            reader.warn(
                line: keyNode.mark?.line, column: keyNode.mark?.column, "the assertion's metric name is left out",
                hint: "ChatEval names a check by its type and place")
        }
        return nil
    }

    /// The check a renamed assertion type becomes (latency → total-time in seconds, word-count →
    /// length in words, is-refusal → refusal), without its weight; empty for any other type, or
    /// one whose value does not convert.
    private static func rewritten(_ type: String, typeNode: Node, mapping: Node.Mapping, keys: [String: Node]) -> [(Node, Node)] {
        let value = mapping["value"]
        switch type {
        case "latency":
            // promptfoo's latency is milliseconds of the whole answer; ChatEval's total-time is seconds.
            guard let bound = mapping["threshold"] ?? value, let milliseconds = bound.scalar.flatMap({ Double($0.string) }) else {
                return []
            }
            return [
                (text("type", at: keys["type"]), text("total-time", at: typeNode)),
                (
                    text("max", at: keys["threshold"] ?? keys["value"]),
                    .scalar(Node.Scalar(SuiteLint.decimal(milliseconds / 1000), .implicit, .plain, bound.mark))
                ),
            ]
        case "word-count":
            // promptfoo's value is an exact count, or {min, max} (either bound alone): a length in words within them.
            let bounds: [(String, Node)]
            if let count = value?.scalar.flatMap({ Int($0.string) }) {
                let number = Node.scalar(Node.Scalar(String(count), .implicit, .plain, value?.mark))
                bounds = [("min", number), ("max", number)]
            } else if case .mapping(let range)? = value {
                let keys = Set(range.keys.compactMap { $0.scalar?.string })
                guard !keys.isEmpty, keys.isSubset(of: ["min", "max"]) else { return [] }
                bounds = ["min", "max"].compactMap { name in
                    range[name].flatMap { node in
                        node.scalar.flatMap { Int($0.string) }.map {
                            (name, Node.scalar(Node.Scalar(String($0), .implicit, .plain, node.mark)))
                        }
                    }
                }
                guard bounds.count == keys.count else { return [] }
            } else {
                return []
            }
            return [(text("type", at: keys["type"]), text("length", at: typeNode)), (text("unit", at: keys["value"]), text("words"))]
                + bounds.map { (text($0.0, at: keys["value"]), $0.1) }
        case "is-refusal", "not-is-refusal":
            return [(text("type", at: keys["type"]), text(type == "is-refusal" ? "refusal" : "not-refusal", at: typeNode))]
        default:
            return []
        }
    }

    /// An assertion whose type ChatEval has under the same name, carried over as it is: its type,
    /// its value (templates converted; numbers as text where the check takes text) and threshold.
    private static func carriedOver(_ type: String, typeNode: Node, mapping: Node.Mapping, keys: [String: Node], reader: YAMLReader)
        -> [(Node, Node)]
    {
        var pairs: [(Node, Node)] = [(text("type", at: keys["type"]), typeNode)]
        if let value = mapping["value"] {
            // promptfoo compares numbers in a value as text; so does a ChatEval check that takes text.
            let base = type.hasPrefix(CheckCatalogue.negationPrefix) ? String(type.dropFirst(CheckCatalogue.negationPrefix.count)) : type
            let takesText = CheckCatalogue.info(for: base)?.arguments.first { $0.name == "value" }?.valueType.contains("string") ?? false
            pairs.append((text("value", at: keys["value"]), converted(value, numbersAsText: takesText, reader: reader)))
        }
        if let threshold = mapping["threshold"] { pairs.append((text("threshold", at: keys["threshold"]), threshold)) }
        return pairs
    }

    /// A value with its templates converted (strings, and strings in lists); numbers become text
    /// when `numbersAsText`.
    private static func converted(_ node: Node, numbersAsText: Bool, reader: YAMLReader) -> Node {
        switch node {
        case .scalar(let scalar) where scalar.style == .plain && Double(scalar.string) != nil:
            return numbersAsText ? .scalar(Node.Scalar(scalar.string, Tag(.str), .doubleQuoted, scalar.mark)) : node
        case .scalar(let scalar):
            return template(scalar.string, at: node, reader: reader) ?? node
        case .sequence(let items):
            return .sequence(
                Node.Sequence(items.map { converted($0, numbersAsText: numbersAsText, reader: reader) }, items.tag, items.style, items.mark)
            )
        default:
            return node
        }
    }

    private static func conversation(id: String, prompt: Prompt, test: TestCase, variables: [(String, Node)]) -> Node {
        var pairs: [(Node, Node)] = [(text("id"), text(id))]
        if let system = prompt.system { pairs.append((text("system"), system)) }
        if !variables.isEmpty {
            pairs.append((text("vars"), .mapping(Node.Mapping(variables.map { (text($0.0), $0.1) }, .implicit, .block, test.mark))))
        }
        let turns = prompt.users.enumerated().map { offset, user -> Node in
            var turn: [(Node, Node)] = [(text("user"), user)]
            if offset == prompt.users.count - 1, !test.asserts.isEmpty {
                turn.append((text("checks"), .sequence(Node.Sequence(test.asserts, .implicit, .block, test.mark))))
            }
            return .mapping(Node.Mapping(turn, .implicit, .block, user.mark))
        }
        pairs.append((text("turns"), .sequence(Node.Sequence(turns, .implicit, .block, test.mark))))
        return .mapping(Node.Mapping(pairs, .implicit, .block, test.mark))
    }

    // MARK: Pieces

    private static func refuseFile(_ path: String, at node: Node, _ what: String, reader: YAMLReader) {
        reader.fail(
            .invalidValue, at: node, "\(what) from \(path) are not read: a suite holds its prompts and tests in one file",
            hint: "paste them into the config (chateval import promptfoo writes the suite to edit)")
    }

    /// The suite's name: the config's `description` as an id ("Tweets about topics" →
    /// "tweets-about-topics"), as promptfoo titles an eval by it; without one, the config's folder
    /// for `promptfooconfig.yaml`, else the file's name.
    static func suiteName(_ file: String, description: String? = nil) -> String {
        if let description, case let name = slug(description, fallback: ""), !name.isEmpty { return name }
        let url = URL(fileURLWithPath: file)
        let stem = url.deletingPathExtension().lastPathComponent
        let name = stem == "promptfooconfig" ? url.deletingLastPathComponent().lastPathComponent : stem
        return slug(name, fallback: "promptfoo")
    }

    /// Lower-case letters, digits and single dashes, at most 48 characters, cut after a whole word
    /// where a longer text has one to cut after (never in the middle of a word it can keep whole).
    static func slug(_ text: String, fallback: String) -> String {
        var slug = ""
        var cut = false
        for character in text.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                guard slug.count < 48 else {
                    cut = true
                    break
                }
                slug.append(character)
            } else if !slug.isEmpty && slug.last != "-" {
                slug.append("-")
            }
        }
        if cut, slug.last != "-", let dash = slug.lastIndex(of: "-") { slug = String(slug[..<dash]) }
        while slug.last == "-" { slug.removeLast() }
        return slug.isEmpty ? fallback : slug
    }

    /// The most conversations one config converts to, over all its prompts, tests and list values.
    static let maximumConversations = 1000

    /// `a × b`, or `Int.max` where it would overflow.
    static func product(_ a: Int, _ b: Int) -> Int {
        let (result, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int.max : result
    }

    /// Ids made unique by a counter per id ("x", "x-2", "x-3"...): each id is claimed in
    /// amortised constant time, not by retrying every earlier suffix.
    struct UniqueNames {
        private var used = Set<String>()
        private var nextSuffix: [String: Int] = [:]

        mutating func claim(_ id: String) -> String {
            guard used.contains(id) else {
                used.insert(id)
                return id
            }
            var counter = nextSuffix[id, default: 2]
            while used.contains("\(id)-\(counter)") { counter += 1 }
            nextSuffix[id] = counter + 1
            let candidate = "\(id)-\(counter)"
            used.insert(candidate)
            return candidate
        }
    }

    private static func text(_ string: String, at node: Node? = nil) -> Node {
        .scalar(Node.Scalar(string, .implicit, .any, node?.mark))
    }
}
