import ChatEvalCore

/// The multi-turn instruction-following scores (`InstructionFollowingScores`) as text, Markdown
/// and HTML: one row per turn — prompt- and instruction-level accuracy strict / loose, forgetting,
/// the survival curve — with the turn's median TTFT and reuse beside it, then one line per suite
/// (pattern) and variant. The HTML adds the survival curve as a chart, one line per model.
public enum InstructionFollowingReport {
    static let legend =
        "prompt / instr.: share of turns with every instruction followed / of instructions followed, strict and loose (IFEval); "
        + "forgot: followed at the turn before, not at this one; survival: share of conversations fully compliant "
        + "through this turn (Kaplan–Meier: a conversation that has ended is not counted as failing)"

    static let turnColumns = [
        "turn", "convs", "prompt strict", "prompt loose", "instr. strict", "instr. loose", "forgot", "survival", "TTFT", "reuse",
    ]

    static func turnCells(_ row: InstructionFollowingScores.Turn) -> [String] {
        [
            "\(row.turn)", "\(row.prompts)", Format.percent(row.promptAccuracyStrict), Format.percent(row.promptAccuracyLoose),
            Format.percent(row.instructionAccuracyStrict), Format.percent(row.instructionAccuracyLoose),
            row.carried == 0 ? "–" : "\(row.forgotten)/\(row.carried)", Format.percent(row.survival),
            Format.duration(row.medianTimeToFirstToken), Format.percent(row.medianReuseRatio),
        ]
    }

    static let partColumns = ["suite", "convs", "prompt strict", "prompt loose", "instr. strict", "instr. loose", "forgetting", "survival"]

    static func partCells(_ name: String, _ scores: InstructionFollowingScores) -> [String] {
        let total = scores.total
        return [
            name, "\(scores.replays)", Format.percent(total.promptAccuracyStrict), Format.percent(total.promptAccuracyLoose),
            Format.percent(total.instructionAccuracyStrict), Format.percent(total.instructionAccuracyLoose),
            total.carried == 0 ? "–" : "\(Format.percent(total.forgettingRate)) (\(total.forgotten)/\(total.carried))",
            Format.percent(total.survival),
        ]
    }

    static func heading(_ section: InstructionFollowingScores.Section) -> String {
        "multi-turn instruction following" + (section.label.map { " · \($0)" } ?? "")
            + " · \(Format.count(section.all.replays, "conversation")) tagged \(InstructionFollowingScores.tag)"
    }

    // MARK: Terminal

    /// The terminal section; empty when no conversation is tagged `multi-turn-if`.
    public static func render(_ sections: [InstructionFollowingScores.Section]) -> String {
        sections.map { section in
            var turns = TextTable(turnColumns.map { TextTable.Column($0) })
            section.all.turns.forEach { turns.add(turnCells($0)) }
            var parts = TextTable(partColumns.enumerated().map { TextTable.Column($1, $0 == 0 ? .left : .right) })
            section.parts.forEach { parts.add(partCells($0.name, $0.scores)) }
            parts.add(partCells("all", section.all))
            return [
                heading(section), turns.render(indent: "  "), parts.render(indent: "  "),
                Format.wrap(legend, width: RunReport.width, hanging: "  "),
            ]
            .joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    // MARK: Markdown

    public static func markdown(_ sections: [InstructionFollowingScores.Section]) -> String {
        func table(_ header: [String], _ rows: [[String]]) -> String {
            (["| " + header.joined(separator: " | ") + " |", "|" + header.map { _ in "---|" }.joined()]
                + rows.map { "| " + $0.map(Markup.markdown).joined(separator: " | ") + " |" }).joined(separator: "\n")
        }
        return sections.map { section in
            [
                "### " + Markup.markdown(heading(section)),
                table(turnColumns, section.all.turns.map(turnCells)),
                table(partColumns, section.parts.map { partCells($0.name, $0.scores) } + [partCells("all", section.all)]),
                "_" + legend + "_",
            ].joined(separator: "\n\n")
        }.joined(separator: "\n\n")
    }

    // MARK: HTML

    public static func html(_ sections: [InstructionFollowingScores.Section]) -> String {
        guard !sections.isEmpty else { return "" }
        let length = sections.map(\.all.turns.count).max() ?? 0
        let survival = SVGChart.lines(
            title: "Turn survival", unit: "%",
            lines: sections.enumerated().map { index, section in
                SVGChart.Line(name: section.label ?? "model \(index + 1)", values: section.all.turns.map { $0.survival * 100 })
            },
            xLabels: (1...max(1, length)).map { "turn \($0)" }, bounds: 0...100, fromZero: true, format: { String(format: "%.0f%%", $0) })
        var body =
            "<h2>Multi-turn instruction following</h2><p class=\"legend\">Turn survival: the share of conversations fully "
            + "compliant through turn k.</p>" + survival
        for section in sections {
            body += "<h3>\(Markup.html(heading(section)))</h3>"
            body += table(turnColumns, section.all.turns.map(turnCells))
            body += table(partColumns, section.parts.map { partCells($0.name, $0.scores) } + [partCells("all", section.all)])
        }
        return body + "<p class=\"legend\">\(Markup.html(legend))</p>"
    }

    private static func table(_ header: [String], _ rows: [[String]]) -> String {
        "<table><tr>" + header.map { "<th>\(Markup.html($0))</th>" }.joined() + "</tr>"
            + rows.map { "<tr>" + $0.map { "<td>\(Markup.html($0))</td>" }.joined() + "</tr>" }.joined() + "</table>"
    }
}
