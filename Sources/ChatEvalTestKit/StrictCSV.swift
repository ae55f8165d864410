/// A strict RFC 4180 reader for tests of the CSV ChatEval writes, independent of its writer:
/// records end in CR LF; a quoted field runs to its closing quote, a doubled quote inside it being
/// one quote. A quote inside an unquoted field, text after a closing quote, a bare CR or LF
/// outside quotes, an unclosed quote or a last record without its CR LF is an error.
public enum StrictCSV {
    public struct Malformed: Error, CustomStringConvertible {
        public var description: String
    }

    /// The records of `text`, each a list of fields.
    public static func parse(_ text: String) throws -> [[String]] {
        var records: [[String]] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\"":
                guard field.isEmpty && !quoted else { throw Malformed(description: "a quote inside an unquoted field: \(field)") }
                quoted = true
                while true {
                    guard let next = scalars.popFirst() else { throw Malformed(description: "an unclosed quoted field: \(field)") }
                    if next == "\"" {
                        guard scalars.first == "\"" else { break }
                        scalars.removeFirst()
                    }
                    field.unicodeScalars.append(next)
                }
            case ",":
                fields.append(field)
                field = ""
                quoted = false
            case "\r":
                guard scalars.popFirst() == "\n" else { throw Malformed(description: "a CR that does not end a record, after \(field)") }
                records.append(fields + [field])
                fields = []
                field = ""
                quoted = false
            default:
                guard !quoted && scalar != "\n" else { throw Malformed(description: "text after a closing quote, or a bare LF: \(field)") }
                field.unicodeScalars.append(scalar)
            }
        }
        guard fields.isEmpty && field.isEmpty else { throw Malformed(description: "the last record is not ended by CR LF") }
        return records
    }
}
