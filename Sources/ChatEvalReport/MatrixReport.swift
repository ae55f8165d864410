import ChatEvalCompare
import ChatEvalCore

/// A variant matrix (`VariantMatrix`) as text and HTML: one row per turn, one column per model ×
/// variant, each cell the checks passed over the replays and the median time to first token,
/// marked ▲ (better) or ▼ (worse) only where the test against the first column says so.
public enum MatrixReport {
    public static let legend =
        "▲ ▼ significantly better / worse than the first column, or decided exactly (a greedy turn whose answers repeat "
        + "exactly over two or more replays on both sides, a check of the answer passing on every replay of one and "
        + "failing on every replay of the other: a fact, as compare's exact ledger decides it), ? different but too few replays to tell: "
        + "Fisher's exact test on each check's pass count, "
        + "the rank test on TTFT per turn; Holm within each column's comparison, "
        + "the error rate split over the columns and, in each, evenly between checks and TTFT"

    /// A cell's verdict as its symbol (the legend names them): ▲ improvement, ▼ regression, ? undecided.
    static func symbol(_ verdict: ChangeVerdict?) -> String {
        switch verdict {
        case .improvement?: "▲"
        case .regression?: "▼"
        case .undecided?: "?"
        // `VariantMatrix.build` marks a cell with none of these: unmarked, as a cell the test left alone.
        case .unchanged?, .notWorse?, .underpowered?, .notMeasured?, .notGated?, .accepted?, .flaky?, nil: ""
        }
    }

    static func cellText(_ cell: VariantMatrix.Cell?) -> String {
        guard let cell else { return "(not run)" }
        let checks = cell.checksTotal == 0 ? "–" : "\(cell.checksPassed)/\(cell.checksTotal)"
        return "\(checks)\(symbol(cell.checks)) \(Format.duration(cell.timeToFirstToken))\(symbol(cell.timeToFirstTokenVerdict))"
    }

    /// The terminal section, within `width` columns: the columns numbered and named above the
    /// table (model names are long), row labels clipped in the middle so the turn stays.
    public static func render(_ matrix: VariantMatrix, width: Int = RunReport.width) -> String {
        let count = matrix.columns.count
        var lines = [
            Format.clip(
                "matrix: \(count) columns, each against column 1 (α \(String(format: "%.3g", matrix.errorRatePerComparison)) per column)",
                width)
        ]
        // Names are wrapped, never cut: a column's label under its number, a row's suite/conversation in its cell.
        for (index, column) in matrix.columns.enumerated() {
            let number = "  \(index + 1)  "
            let label = Format.wrapName(column.label, width: width - number.count)
            lines.append(number + label.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: number.count)))
        }
        let rowWidth = min(36, max(16, width - count * 18))
        let cellWidth = max(12, (width - rowWidth - 2 * count) / count)
        var table = TextTable([.init("turn", .left)] + (1...count).map { .init("\($0)", .left) })
        for row in matrix.rows {
            table.add(
                [Format.wrapName("\(row.suite)/\(row.conversation) · \(row.turn)", width: rowWidth)]
                    + row.cells.map { Format.clip(cellText($0), cellWidth) })
        }
        lines.append(table.render())
        lines.append(Format.wrap("(cells: checks passed over the replays, median TTFT; " + legend + ")", width: width, hanging: " "))
        return lines.joined(separator: "\n")
    }

    /// A GitHub-flavoured Markdown table under a `###` heading: the columns named in full (a
    /// pull-request comment has the width), the marks as in the terminal, the legend under it.
    public static func markdown(_ matrix: VariantMatrix) -> String {
        var lines = [
            "### Matrix: each column against \(Markup.markdown(matrix.columns[0].label))", "",
            "| turn | " + matrix.columns.map { Markup.markdown($0.label) }.joined(separator: " | ") + " |",
            "|---|" + String(repeating: "---|", count: matrix.columns.count),
        ]
        for row in matrix.rows {
            lines.append(
                "| \(Markup.markdown("\(row.suite)/\(row.conversation) · turn \(row.turn)")) | "
                    + row.cells.map { Markup.markdown(cellText($0)) }.joined(separator: " | ") + " |")
        }
        lines += [
            "",
            "_cells: checks passed over the replays, median TTFT; α \(String(format: "%.3g", matrix.errorRatePerComparison)) per column; "
                + Markup.markdown(legend) + "_",
        ]
        return lines.joined(separator: "\n")
    }

    /// The HTML table: a cell's class says whether it is better or worse than the first column.
    public static func html(_ matrix: VariantMatrix) -> String {
        var body = "<h2>Matrix: each column against \(Markup.html(matrix.columns[0].label))</h2><table class=\"matrix\"><tr><th>turn</th>"
        body += matrix.columns.map { "<th>\(Markup.html($0.label))</th>" }.joined() + "</tr>"
        for row in matrix.rows {
            body += "<tr><td>\(Markup.html("\(row.suite)/\(row.conversation) · turn \(row.turn)"))</td>"
            for cell in row.cells {
                guard let cell else {
                    body += "<td>(not run)</td>"
                    continue
                }
                // Each half coloured by its own verdict: fewer checks passed and a faster TTFT are two findings.
                func part(_ text: String, _ verdict: ChangeVerdict?, exactly: Bool = false) -> String {
                    let kind = verdict.map { " class=\"\($0.rawValue)\" title=\"\($0.words)\(exactly ? ", decided exactly" : "")\"" } ?? ""
                    return "<span\(kind)>\(Markup.html(text + symbol(verdict)))</span>"
                }
                let checks = cell.checksTotal == 0 ? "–" : "\(cell.checksPassed)/\(cell.checksTotal)"
                body +=
                    "<td>\(part(checks, cell.checks, exactly: cell.checksDecidedExactly)) "
                    + "\(part(Format.duration(cell.timeToFirstToken), cell.timeToFirstTokenVerdict))</td>"
            }
            body += "</tr>"
        }
        return body + "</table><p class=\"legend\">\(Markup.html(legend))</p>"
    }
}
