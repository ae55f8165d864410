import ChatEvalCore
import ChatEvalGrading

/// RFC 4180 CSV: fields separated by commas, quoted with `"` (doubled inside), records by CRLF or
/// LF; a quoted field may span lines. Each record keeps the line it starts on.
enum CSVRecords {
    struct Record {
        var line: Int
        var fields: [String]
    }

    struct Failure: Error {
        var line: Int
        var message: String
    }

    static func parse(_ text: String) throws(Failure) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field = ""
        var line = 1, recordLine = 1
        var quoted = false, quoteOpenedAt = 0
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let scalar = pending {
                pending = nil
                return scalar
            }
            return scalars.next()
        }
        while let scalar = next() {
            if quoted {
                if scalar == "\"" {
                    let after = next()
                    if after == "\"" {
                        field.unicodeScalars.append("\"")
                    } else {
                        quoted = false
                        pending = after
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty:
                quoted = true
                quoteOpenedAt = line
            case ",":
                fields.append(field)
                field = ""
            case "\r":
                let after = next()
                if after != "\n" { pending = after }
                fallthrough
            case "\n":
                fields.append(field)
                records.append(Record(line: recordLine, fields: fields))
                fields = []
                field = ""
                line += 1
                recordLine = line
            default:
                field.unicodeScalars.append(scalar)
            }
        }
        if quoted { throw Failure(line: quoteOpenedAt, message: "a quoted field opened here is never closed") }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            records.append(Record(line: recordLine, fields: fields))
        }
        return records
    }
}
