/// A plain-text table with aligned columns (numbers right, text left), for terminals and CI logs.
public struct TextTable: Sendable {
    public enum Alignment: Sendable { case left, right }

    public struct Column: Sendable {
        public var title: String
        public var alignment: Alignment
        public init(_ title: String, _ alignment: Alignment = .right) {
            self.title = title
            self.alignment = alignment
        }
    }

    public var columns: [Column]
    public private(set) var rows: [[String]] = []

    public init(_ columns: [Column]) { self.columns = columns }

    /// Adds a row; missing cells are blank, extra cells are dropped.
    public mutating func add(_ cells: [String]) {
        rows.append(Array((cells + Array(repeating: "", count: max(0, columns.count - cells.count))).prefix(columns.count)))
    }

    /// The table; a cell holding line breaks (a name wrapped rather than cut) takes as many lines
    /// as it has, the row's other cells on its first.
    public func render(indent: String = "") -> String {
        let widths = columns.indices.map { index in
            max(
                DisplayWidth.of(columns[index].title),
                rows.flatMap { $0[index].split(separator: "\n").map { DisplayWidth.of(String($0)) } }.max() ?? 0)
        }
        func line(_ cells: [String]) -> String {
            let parts = cells.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
            let height = parts.map(\.count).max() ?? 1
            return (0..<height).map { row in
                let padded = parts.enumerated().map { index, lines in
                    let cell = row < lines.count ? lines[row] : ""
                    let padding = String(repeating: " ", count: max(0, widths[index] - DisplayWidth.of(cell)))
                    return columns[index].alignment == .right ? padding + cell : cell + padding
                }
                return indent + padded.joined(separator: "  ").replacing(/\s+$/, with: "")
            }.joined(separator: "\n")
        }
        let rule = indent + widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ")
        return ([line(columns.map(\.title)), rule] + rows.map(line)).joined(separator: "\n")
    }
}
