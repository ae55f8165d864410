/// RFC 4180 CSV, read as it streams in: fields separated by commas, quoted with `"` (doubled
/// inside), records by CRLF, LF or CR; a quoted field may span lines. Each record keeps the line
/// it starts on.
///
/// Written by hand, on bytes: the structural characters are ASCII, which no byte of a multi-byte
/// UTF-8 sequence can be, so each field is decoded (and checked as UTF-8) once it is complete; and
/// a record longer than `maximumRecordBytes` is refused as it grows, so that memory stays bounded
/// whatever the file holds (Foundation has no CSV reader; the packages in reach read whole files).
struct CSVRecords {
    struct Record {
        var line: Int
        var fields: [String]
    }

    struct Failure: Error {
        var line: Int
        var message: String
    }

    let maximumRecordBytes: Int
    private var fields: [String] = []
    private var field: [UInt8] = []
    private var line = 1, recordLine = 1, recordBytes = 0
    private var quoted = false, quoteOpenedAt = 0
    /// A quote inside a quoted field: the field's end, or the first of a doubled pair.
    private var afterQuote = false
    /// A CR ended the record: an LF right after it belongs to it.
    private var afterCR = false

    init(maximumRecordBytes: Int = ImportInput.maximumRecordBytes) {
        self.maximumRecordBytes = maximumRecordBytes
    }

    /// Every record of `text` (tests and small inputs).
    static func parse(_ text: String) throws(Failure) -> [Record] {
        var parser = CSVRecords()
        return try parser.feed(Array(text.utf8)) + parser.finish()
    }

    /// The records `bytes` complete, in order; the rest is kept for the next call.
    mutating func feed(_ bytes: some Sequence<UInt8>) throws(Failure) -> [Record] {
        var records: [Record] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            recordBytes += 1
            guard recordBytes <= maximumRecordBytes else {
                throw Failure(line: recordLine, message: "the record starting here is longer than \(maximumRecordBytes) bytes")
            }
            if quoted {
                if afterQuote {
                    afterQuote = false
                    if byte == UInt8(ascii: "\"") {
                        field.append(byte)
                        continue
                    }
                    quoted = false
                } else {
                    if byte == UInt8(ascii: "\"") {
                        afterQuote = true
                    } else {
                        if byte == UInt8(ascii: "\n") { line += 1 }
                        field.append(byte)
                    }
                    continue
                }
            }
            switch byte {
            case UInt8(ascii: "\"") where field.isEmpty:
                quoted = true
                quoteOpenedAt = line
            case UInt8(ascii: ","):
                try endField()
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                afterCR = byte == UInt8(ascii: "\r")
                records.append(try endRecord())
                line += 1
                recordLine = line
            default:
                field.append(byte)
            }
        }
        return records
    }

    /// The last record, if the input did not end with a line break; throws for a quoted field
    /// never closed.
    mutating func finish() throws(Failure) -> [Record] {
        if afterQuote { quoted = false }
        if quoted { throw Failure(line: quoteOpenedAt, message: "a quoted field opened here is never closed") }
        guard !field.isEmpty || !fields.isEmpty else { return [] }
        return [try endRecord()]
    }

    private mutating func endField() throws(Failure) {
        guard let text = String(validating: field, as: UTF8.self) else {
            throw Failure(line: recordLine, message: "the record is not UTF-8 text")
        }
        fields.append(text)
        field.removeAll(keepingCapacity: true)
    }

    private mutating func endRecord() throws(Failure) -> Record {
        try endField()
        defer {
            fields = []
            recordBytes = 0
        }
        return Record(line: recordLine, fields: fields)
    }
}
