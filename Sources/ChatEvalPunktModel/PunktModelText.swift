/// The data file's tables. The file is a header paragraph, then per table an empty line, a name
/// line ("abbreviations: …") and the entries, one a line; entries are never empty, so an empty
/// line always ends a table. A table the text lacks is empty (the tests pin every table's content).
struct PunktModelText {
    let abbreviations: String
    let collocations: String
    let sentenceStarters: String
    let orthographicContext: String

    /// Reads the tables from the file's UTF-8 bytes. Split as bytes, not as decoded characters:
    /// against the string literals this file replaced, splitting the decoded text added about 6 ms
    /// of CPU to a process's first sentence count, splitting the bytes about 0.5 ms (9.0 → 9.5 ms;
    /// `chateval-grading-bench --first-use`, 2026-11-27).
    init<Bytes: BidirectionalCollection<UInt8>>(utf8 bytes: Bytes) {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        var tables: [String: String] = [:]
        // An empty line, then a table's name line: the header ends at the first empty line.
        var emptyLine = lines.firstIndex(where: \.isEmpty) ?? lines.endIndex
        while emptyLine + 1 < lines.endIndex {
            let nameLine = lines[emptyLine + 1]
            let end = lines[(emptyLine + 1)...].firstIndex(where: \.isEmpty) ?? lines.endIndex
            let entries = lines[(emptyLine + 2)..<max(emptyLine + 2, end)]
            var text = ""
            if let first = entries.first, let last = entries.last {
                text = String(decoding: bytes[first.startIndex..<last.endIndex], as: UTF8.self)
            }
            tables[String(decoding: nameLine.prefix { $0 != UInt8(ascii: ":") }, as: UTF8.self)] = text
            emptyLine = end
        }
        abbreviations = tables["abbreviations"] ?? ""
        collocations = tables["collocations"] ?? ""
        sentenceStarters = tables["sentence-starters"] ?? ""
        orthographicContext = tables["orthographic-context"] ?? ""
    }
}
