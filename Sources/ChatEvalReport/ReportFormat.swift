/// The formats `run`, `compare`, `report` and `history` write (`--format`, or `--output FILE` by extension).
public enum ReportFormat: String, CaseIterable, Sendable {
    /// The tables a terminal or a CI log shows.
    case terminal
    /// The documented records (`reports/schema/*.schema.json`).
    case json
    /// GitHub-flavoured Markdown for a pull-request comment or a job summary.
    case markdown
    /// JUnit XML for CI test dashboards (GitLab, Jenkins, ...).
    case junit
    /// One self-contained HTML page with charts.
    case html
    /// One row per measured turn (`CSVReport`), for a spreadsheet or a data frame: runs and
    /// comparisons only (a history has no turns).
    case csv

    /// The format a file's extension names: .txt, .json, .md/.markdown, .xml, .html/.htm, .csv.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "txt", "log": self = .terminal
        case "json": self = .json
        case "md", "markdown": self = .markdown
        case "xml": self = .junit
        case "html", "htm": self = .html
        case "csv": self = .csv
        default: return nil
        }
    }

    /// The extension a file of this format is given: txt, json, md, xml, html, csv.
    public var fileExtension: String {
        switch self {
        case .terminal: "txt"
        case .json: "json"
        case .markdown: "md"
        case .junit: "xml"
        case .html: "html"
        case .csv: "csv"
        }
    }

    /// Extensions `init(fileExtension:)` takes, for messages.
    public static let extensions = ".txt, .json, .md, .xml, .html, .csv"
}
