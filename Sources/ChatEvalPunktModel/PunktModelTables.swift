/// The data file's tables, as entries. The file is a header paragraph, then per table an empty
/// line, a name line ("abbreviations: …") and the entries, one a line; entries are never empty, so
/// an empty line always ends a table. A table the text lacks is empty, and so is a line that is not
/// an entry of its table (the tests pin every table's entries by digest).
struct PunktModelTables {
    /// Abbreviations (lowercase, without the final period).
    private(set) var abbreviations: [String] = []
    /// Collocations: a word ending in a period and the word after it (a line's text either side of its first tab).
    private(set) var collocations: [(word: String, next: String)] = []
    /// Frequent sentence starters.
    private(set) var sentenceStarters: [String] = []
    /// Orthographic contexts: a word type and its flags (a line's text either side of its last tab).
    private(set) var orthographicContext: [(type: String, flags: Int)] = []

    /// Reads the tables from the file's UTF-8 bytes, splitting them into lines once and each line
    /// into its fields as bytes (a String splits by Character, which costs more). A fresh process's
    /// first sentence count, which parses the model (`chateval-grading-bench --first-use`), medians
    /// of 15 processes each, run alternately on an AMD EPYC with 2 cores shared with other
    /// engineers' compiles (load average 4.4: not quiet), 2026-11-27: 9.7 ms CPU when the tables
    /// were split into lines here and, as decoded text, again in ChatEvalGrading; 3.5 ms split once.
    init<Bytes: BidirectionalCollection<UInt8>>(utf8 bytes: Bytes) {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // An empty line, then a table's name line: the header ends at the first empty line.
        var emptyLine = lines.firstIndex(where: \.isEmpty) ?? lines.endIndex
        while emptyLine + 1 < lines.endIndex {
            let end = lines[(emptyLine + 1)...].firstIndex(where: \.isEmpty) ?? lines.endIndex
            let entries = lines[(emptyLine + 2)..<max(emptyLine + 2, end)]
            switch Self.text(lines[emptyLine + 1].prefix { $0 != UInt8(ascii: ":") }) {
            case "abbreviations": abbreviations = entries.map { Self.text($0) }
            case "collocations": collocations = entries.compactMap { Self.collocationEntry($0) }
            case "sentence-starters": sentenceStarters = entries.map { Self.text($0) }
            case "orthographic-context": orthographicContext = entries.compactMap { Self.orthographicContextEntry($0) }
            default: break
            }
            emptyLine = end
        }
    }

    private static let tab = UInt8(ascii: "\t")

    private static func text(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// "word\tnext"; nil for a line without a tab.
    private static func collocationEntry<Line: Collection<UInt8>>(_ line: Line) -> (word: String, next: String)? {
        guard let tab = line.firstIndex(of: tab) else { return nil }
        return (text(line[..<tab]), text(line[line.index(after: tab)...]))
    }

    /// "type\tflags"; nil for a line without a tab or whose flags are not a number.
    private static func orthographicContextEntry<Line: BidirectionalCollection<UInt8>>(_ line: Line) -> (type: String, flags: Int)? {
        guard let tab = line.lastIndex(of: tab), let flags = Int(text(line[line.index(after: tab)...])) else { return nil }
        return (text(line[..<tab]), flags)
    }
}
