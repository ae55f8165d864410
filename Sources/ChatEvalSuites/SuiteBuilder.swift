import ChatEvalCore
import Foundation
internal import Yams

/// Turns the composed document into a `Suite`, reporting problems to the reader.
struct SuiteBuilder {
    let reader: YAMLReader

    func suite(from root: Node, path: String) -> Suite? {
        guard
            let entries = reader.mapping(
                root, "the suite", allowed: ["name", "description", "defaults", "variants", "gates", "compare", "slo", "conversations"])
        else { return nil }
        let name = required("name", in: entries, of: root, "the suite").flatMap { reader.string($0, "name") }
        let description = entries["description"].flatMap { reader.string($0, "description") }
        let defaults =
            entries["defaults"].map { settings(from: $0, "defaults", allowed: ConversationSettings.keys) } ?? ConversationSettings()

        let variants = entries["variants"].map(variants(from:)) ?? []
        var conversations: [SuiteConversation] = []
        var seen: [String: Int] = [:]
        if let list = required("conversations", in: entries, of: root, "the suite").flatMap({ reader.sequence($0, "conversations") }) {
            if list.isEmpty {
                reader.fail(.invalidValue, at: entries["conversations"], "conversations is empty", hint: "add at least one conversation")
            }
            for node in list {
                // Under variants, each conversation once per variant (variant first: the matrix's columns).
                let copies = variants.isEmpty ? [nil] : variants.map { $0 as Variant? }
                for variant in copies {
                    guard let conversation = conversation(from: node, defaults: defaults, variant: variant) else { continue }
                    if let line = seen[conversation.id] {
                        reader.fail(
                            .duplicate, at: node, "conversation id '\(conversation.id)' is used twice (first at line \(line))",
                            hint: "ids must be unique in a suite")
                    } else {
                        seen[conversation.id] = node.mark?.line ?? 0
                        conversations.append(conversation)
                    }
                }
            }
        }
        let gates = entries["gates"].map(gates(from:)) ?? SuiteGates()
        let comparison = entries["compare"].flatMap {
            ComparisonSection(reader: reader).overrides($0, allowed: ComparisonSection.suiteKeys)
        }
        let slo = entries["slo"].flatMap { SLOSection(reader: reader).objectives($0) }
        guard let name else { return nil }
        var suite = Suite(
            name: name, description: description, path: path, conversations: conversations, gates: gates, comparison: comparison, slo: slo)
        suite.variants = variants.map(\.id)
        return suite
    }

    /// One entry of `variants:`: an id and the settings it lays over every conversation's.
    struct Variant {
        var id: String
        var settings: ConversationSettings
        /// `turns:`: user messages replacing every conversation's, turn for turn (the
        /// conversation keeps its checks); nil keeps the conversation's messages.
        var turns: (node: Node, messages: [Node])?
    }

    /// `variants:` — a list of `{id, system, max_tokens, temperature, ..., vars, turns}`; each runs
    /// every conversation with its settings laid over the conversation's (a variant's system
    /// prompt replaces the conversation's, its vars are merged over them, its `turns` — user
    /// messages, as many as each conversation has turns — replace the conversation's messages:
    /// promptfoo's prompts as columns over its tests as rows).
    private func variants(from node: Node) -> [Variant] {
        guard let items = reader.sequence(node, "variants") else { return [] }
        if items.count < 2 {
            reader.fail(.invalidValue, at: node, "variants needs at least two entries to compare", hint: "add another, or drop variants:")
        }
        var found: [Variant] = []
        for item in items {
            let allowed = ["id", "description", "turns"] + ConversationSettings.keys
            guard let entries = reader.mapping(item, "a variant", allowed: allowed),
                let id = required("id", in: entries, of: item, "a variant").flatMap({ reader.string($0, "id of a variant") })
            else { continue }
            guard !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }) else {
                reader.fail(.invalidValue, at: entries["id"], "variant id '\(id)' must be letters, digits, '-', '_' or '.'")
                continue
            }
            if found.contains(where: { $0.id == id }) {
                reader.fail(.duplicate, at: entries["id"], "variant id '\(id)' is used twice", hint: "ids must be unique in a suite")
                continue
            }
            var variant = Variant(id: id, settings: settings(from: item, "variant '\(id)'", allowed: allowed, entries: entries))
            if let node = entries["turns"], let messages = reader.sequence(node, "turns of variant '\(id)'") {
                if messages.isEmpty {
                    reader.fail(
                        .invalidValue, at: node, "variant '\(id)' has an empty turns list", hint: "give its user messages, or drop turns:")
                }
                variant.turns = (node, messages)
            }
            found.append(variant)
        }
        return found
    }

    private func gates(from node: Node) -> SuiteGates {
        guard let entries = reader.mapping(node, "gates", allowed: ["min_pass_rate", "max_failed_turns", "metrics"]) else {
            return SuiteGates()
        }
        var gates = SuiteGates()
        gates.minimumPassRate = entries["min_pass_rate"].flatMap { node in
            reader.number(node, "min_pass_rate").flatMap { rate in
                guard (0...1).contains(rate) else {
                    reader.fail(.invalidValue, at: node, "min_pass_rate must be between 0 and 1, found \(rate)")
                    return nil
                }
                // 0 is meaningful: checks are findings, not a gate (without gates every check must pass).
                return rate
            }
        }
        gates.maximumFailedTurns = entries["max_failed_turns"].flatMap { reader.integer($0, "max_failed_turns", minimum: 0) }
        for item in entries["metrics"].flatMap({ reader.sequence($0, "gates.metrics") }) ?? [] {
            guard let gate = reader.mapping(item, "a metric gate", allowed: ["metric", "stat", "min", "max"]) else { continue }
            let metricNames = Metric.allCases.map(\.rawValue)
            let metric = required("metric", in: gate, of: item, "a metric gate").flatMap { node -> Metric? in
                guard let name = reader.string(node, "metric") else { return nil }
                guard let metric = Metric(rawValue: name) else {
                    reader.fail(
                        .invalidValue, at: node, "unknown metric '\(name)'",
                        hint: suggestions(for: name, among: metricNames).first.map { "did you mean '\($0)'?" }
                            ?? "metrics: \(metricNames.joined(separator: ", "))")
                    return nil
                }
                return metric
            }
            let statNames = Statistic.names
            let statistic =
                gate["stat"].map { node -> Statistic? in
                    guard let name = reader.string(node, "stat") else { return nil }
                    guard let statistic = Statistic(rawValue: name) else {
                        reader.fail(
                            .invalidValue, at: node, "unknown statistic '\(name)'", hint: "statistics: \(statNames.joined(separator: ", "))"
                        )
                        return nil
                    }
                    return statistic
                } ?? .median
            let minimum = gate["min"].flatMap { reader.number($0, "min") }
            let maximum = gate["max"].flatMap { reader.number($0, "max") }
            if gate["min"] == nil && gate["max"] == nil {
                reader.fail(.missingKey, at: item, "a metric gate needs 'min' or 'max'")
            }
            if let minimum, let maximum, minimum > maximum {
                reader.fail(.invalidValue, at: item, "min (\(minimum)) is above max (\(maximum))")
            }
            if let metric, let statistic {
                let gate = MetricGate(metric: metric, statistic: statistic, minimum: minimum, maximum: maximum)
                for finding in SuiteLint.findings(gate) {
                    reader.warn(line: item.mark?.line, column: item.mark?.column, finding.message, hint: finding.hint)
                }
                gates.metrics.append(gate)
            }
        }
        return gates
    }

    /// One conversation of the suite (under `variant`, its copy with the variant's settings and
    /// messages laid over it): settings, turns and checks read and linted; nil when it cannot be
    /// built (the problems are on `reader`).
    private func conversation(from node: Node, defaults: ConversationSettings, variant: Variant? = nil) -> SuiteConversation? {
        let allowed = ["id", "description", "tags", "checks", "turns"] + ConversationSettings.keys
        guard let entries = reader.mapping(node, "a conversation", allowed: allowed) else { return nil }
        let id = required("id", in: entries, of: node, "a conversation").flatMap { reader.string($0, "id") }
        let what = id.map { "conversation '\($0)'" } ?? "a conversation"
        let description = entries["description"].flatMap { reader.string($0, "description") }
        let tags = entries["tags"].flatMap { reader.strings($0, "tags") } ?? []
        var resolved = defaults.overlaid(with: settings(from: node, what, allowed: allowed, entries: entries))
        if let variant { resolved = resolved.overlaid(with: variant.settings) }
        check(resolved, at: node, what)

        var turns = ConversationTurns()
        if let turnsNode = required("turns", in: entries, of: node, what), let nodes = reader.sequence(turnsNode, "turns of \(what)") {
            turns = self.turns(nodes, of: turnsNode, variant: variant, variables: resolved.variables, what)
        }
        let checks =
            entries["checks"].map { node -> [CheckDefinition] in
                let definitions = CheckDefinitionReader(reader: reader).definitions(node, "the checks of \(what)")
                for name in definitions.flatMap(\.placeholders) {
                    checkPlaceholder(name, turnIndex: turns.count, variables: resolved.variables, at: node, "the checks of \(what)")
                }
                return definitions
            } ?? []
        for definition in turns.checks.joined() + checks {
            for finding in SuiteLint.findings(definition, options: resolved.options) {
                reader.warn(line: definition.line, column: definition.column, "\(what): \(finding.message)", hint: finding.hint)
            }
        }
        guard let base = id else { return nil }
        let fullID = variant.map { "\(base)@\($0.id)" } ?? base
        let script = ConversationScript(
            id: fullID, systemPrompt: resolved.system, options: resolved.options, maxMessages: resolved.maxMessages,
            variables: resolved.variables, userMessages: turns.messages)
        var conversation = SuiteConversation(
            id: fullID, description: description, tags: tags, script: script, turnChecks: turns.checks, checks: checks)
        conversation.variant = variant?.id
        return conversation
    }

    /// A conversation's turns as read: each turn's user message and checks (turns that do not
    /// read are left out), and how many turns were written.
    private struct ConversationTurns {
        var messages: [TemplateText] = []
        var checks: [[CheckDefinition]] = []
        var count = 0
    }

    /// Reads `nodes`, the turns of `what` (`turnsNode` is their list): each turn's message — a
    /// variant's in its place when it gives them — and checks; a message that expands past
    /// `TemplateText.maximumExpandedBytes` before any answer is added is an error.
    private func turns(_ nodes: [Node], of turnsNode: Node, variant: Variant?, variables: [String: String], _ what: String)
        -> ConversationTurns
    {
        if nodes.isEmpty {
            reader.fail(.invalidValue, at: turnsNode, "\(what) has no turns", hint: "add at least one turn with a 'user' message")
        }
        var turns = ConversationTurns(count: nodes.count)
        let replacements = variantMessages(variant, turnCount: nodes.count, what)
        var sizes: [Int] = []
        for (index, turn) in nodes.enumerated() {
            guard let (written, checks) = self.turn(from: turn, index: index, variables: variables, what) else { continue }
            var message = written
            if let replacements {
                guard
                    let replaced = userMessage(
                        replacements[index], index: index, variables: variables,
                        "turn \(index + 1) of variant '\(variant?.id ?? "")' for \(what)")
                else { continue }
                message = replaced
            }
            turns.messages.append(message)
            turns.checks.append(checks)
            // The least each message expands to, known now from the variables and earlier
            // messages (answers add to it at run time, where the same limit is checked again).
            guard sizes.count == index else { continue }
            let size = message.expandedSizeAtLeast { name in
                if name.hasPrefix("vars.") { return variables[String(name.dropFirst(5))]?.utf8.count }
                guard let reference = TurnReference(name), reference.field == .user, reference.turn <= sizes.count else { return nil }
                return sizes[reference.turn - 1]
            }
            sizes.append(size)
            if size > TemplateText.maximumExpandedBytes {
                reader.fail(
                    .tooComplex, at: turn,
                    "turn \(index + 1) of \(what) expands to at least \(ByteCount.format(size)) "
                        + "(its placeholders quote earlier turns and variables); "
                        + "a message may have at most \(ByteCount.format(TemplateText.maximumExpandedBytes))",
                    hint: "quote each earlier turn once, or shorten the variables it quotes")
            }
        }
        return turns
    }

    /// A variant's own user messages, replacing a conversation's `turnCount` ones one for one;
    /// nil when it gives none, or (an error) not as many.
    private func variantMessages(_ variant: Variant?, turnCount: Int, _ what: String) -> [Node]? {
        guard let variant, let given = variant.turns, !given.messages.isEmpty else { return nil }
        guard given.messages.count == turnCount else {
            reader.fail(
                .invalidValue, at: given.node,
                "variant '\(variant.id)' gives \(given.messages.count) user message\(given.messages.count == 1 ? "" : "s"), "
                    + "but \(what) has \(turnCount) turn\(turnCount == 1 ? "" : "s")",
                hint:
                    "a variant's turns replace each conversation's messages one for one: "
                    + "give as many as every conversation has turns"
            )
            return nil
        }
        return given.messages
    }

    /// A turn is `- user: "..."` with optional `checks:`, or, for short, `- "..."`.
    private func turn(from node: Node, index: Int, variables: [String: String], _ what: String) -> (TemplateText, [CheckDefinition])? {
        let turnName = "turn \(index + 1) of \(what)"
        let textNode: Node?
        var checks: [CheckDefinition] = []
        if case .scalar = node {
            textNode = node
        } else {
            let entries = reader.mapping(node, turnName, allowed: ["user", "checks"])
            textNode = entries.flatMap { required("user", in: $0, of: node, turnName) }
            if let checksNode = entries?["checks"] {
                checks = CheckDefinitionReader(reader: reader).definitions(checksNode, turnName)
                // Checks may quote this turn too: its answer is known when it is graded.
                for name in checks.flatMap(\.placeholders) {
                    checkPlaceholder(name, turnIndex: index + 1, variables: variables, at: checksNode, "the checks of \(turnName)")
                }
            }
        }
        guard let textNode, let template = userMessage(textNode, index: index, variables: variables, turnName) else { return nil }
        return (template, checks)
    }

    /// The user message of the turn at `index` (0-based), a template whose placeholders name
    /// defined variables and earlier turns.
    private func userMessage(_ textNode: Node, index: Int, variables: [String: String], _ turnName: String) -> TemplateText? {
        guard let text = reader.string(textNode, "the user message of \(turnName)") else { return nil }
        let template: TemplateText
        do {
            template = try TemplateText(text)
        } catch {
            reader.fail(
                .invalidValue, at: textNode, "\(turnName): \(error.message)",
                hint: "placeholders look like {{turn1.answer}} or {{vars.name}}")
            return nil
        }
        for name in template.placeholders {
            checkPlaceholder(name, turnIndex: index, variables: variables, at: textNode, turnName)
        }
        return template
    }

    private func checkPlaceholder(_ name: String, turnIndex: Int, variables: [String: String], at node: Node, _ turnName: String) {
        if name.hasPrefix("vars.") {
            let variable = String(name.dropFirst(5))
            if variables[variable] == nil {
                let near = suggestions(for: variable, among: Array(variables.keys))
                reader.fail(
                    .invalidValue, at: node, "\(turnName) uses {{\(name)}} but no variable '\(variable)' is defined",
                    hint: near.first.map { "did you mean {{vars.\($0)}}?" } ?? "define it under vars:")
            }
        } else if let reference = TurnReference(name) {
            if reference.turn > turnIndex {
                reader.fail(
                    .invalidValue, at: node, "\(turnName) uses {{\(name)}}, which is not an earlier turn",
                    hint: turnIndex == 0 ? "the first turn cannot quote answers" : "earlier turns are turn1...turn\(turnIndex)")
            }
        } else {
            reader.fail(
                .invalidValue, at: node, "\(turnName) uses unknown placeholder {{\(name)}}",
                hint: "use {{turnN.answer}}, {{turnN.user}} or {{vars.NAME}}")
        }
    }

    private func settings(from node: Node, _ what: String, allowed: [String], entries: [String: Node]? = nil) -> ConversationSettings {
        guard let entries = entries ?? reader.mapping(node, what, allowed: allowed) else { return ConversationSettings() }
        var settings = ConversationSettings()
        settings.system = entries["system"].flatMap { reader.string($0, "system") }
        settings.maxTokens = entries["max_tokens"].flatMap {
            reader.integer($0, "max_tokens", minimum: 1, maximum: GenerationOptions.maximumTokens)
        }
        settings.temperature = entries["temperature"].flatMap { reader.number($0, "temperature") }
        settings.topP = entries["top_p"].flatMap { reader.number($0, "top_p") }
        settings.topK = entries["top_k"].flatMap { reader.integer($0, "top_k", minimum: 0, maximum: GenerationOptions.maximumTopK) }
        settings.seed = entries["seed"].flatMap { reader.integer($0, "seed", minimum: 0) }.flatMap { seed in
            guard let value = UInt32(exactly: seed) else {
                reader.fail(.invalidValue, at: entries["seed"], "seed must be below 2^32, found \(seed)")
                return nil
            }
            return value
        }
        settings.stop = entries["stop"].flatMap { reader.strings($0, "stop") }
        settings.maxMessages = entries["max_messages"].flatMap { reader.integer($0, "max_messages", minimum: 1, maximum: 1_000_000) }
        settings.variables = entries["vars"].flatMap { reader.stringMap($0, "vars") } ?? [:]
        return settings
    }

    private func check(_ settings: ConversationSettings, at node: Node, _ what: String) {
        for problem in settings.options.problems {
            reader.fail(.invalidValue, at: node, "\(what): \(problem)")
        }
    }

    private func required(_ key: String, in entries: [String: Node], of node: Node, _ what: String) -> Node? {
        if let value = entries[key] { return value }
        reader.fail(.missingKey, at: node, "\(what) has no '\(key)'")
        return nil
    }
}
