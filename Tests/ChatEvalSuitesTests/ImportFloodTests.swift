import ChatEvalCore
import Foundation
import Testing

@testable import ChatEvalSuites

/// The importers under floods (issue 43, item 1): each reads a chunk at a time and stops at the
/// line where its suite passes the limit, or after a hundred problems — it never reads the rest
/// of the file, so neither time nor memory grows with it. Before, `import ifbench` on many short
/// lines read the whole file, grew to gigabytes and aborted; a FIFO said "permission".
@Suite struct ImportFloodTests {
    /// A file of `count` lines, each `line(i)`, written in pieces; removed by the caller.
    static func file(_ name: String, header: String = "", count: Int, _ line: (Int) -> String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("flood-\(UUID().uuidString)-\(name)")
        try Data(header.utf8).write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        var piece = ""
        for index in 0..<count {
            piece += line(index) + "\n"
            if piece.utf8.count > 1 << 20 {
                try handle.write(contentsOf: Data(piece.utf8))
                piece = ""
            }
        }
        try handle.write(contentsOf: Data(piece.utf8))
        return url
    }

    static func refusal(_ body: () throws -> Void) -> SuiteError? {
        do {
            try body()
            return nil
        } catch let errors as SuiteErrors {
            return errors.errors.last
        } catch {
            return nil
        }
    }

    /// 400,000 short IFBench lines (about 30 MB): the suite is full after some tens of thousands;
    /// the refusal names that line, and nothing after it was read.
    @Test func anIFBenchFloodStopsAtTheLineWhereTheSuiteIsFull() throws {
        let lines = 400_000
        let url = try Self.file("short.jsonl", count: lines) {
            "{\"key\": \($0), \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}"
        }
        defer { try? FileManager.default.removeItem(at: url) }
        let started = Date()
        let error = try #require(Self.refusal { _ = try SuiteLoader.importIFBench(path: url.path) })
        #expect(Date().timeIntervalSince(started) < 20, "refused in bounded time")
        #expect(error.message.hasPrefix("the suite passes its limit here: it holds at most 4194304 bytes"), "\(error)")
        let line = try #require(error.line)
        #expect(line > 1_000 && line < lines / 4, "stopped at line \(line) of \(lines)")
    }

    /// The same with Multi-IF's CSV: one row per line, stopped at the row that fills the suite.
    @Test func aMultiIFFloodStopsAtTheRowWhereTheSuiteIsFull() throws {
        let rows = 300_000
        let url = try Self.file("rows.csv", header: "key,turn_1_prompt\n", count: rows) { "k\($0),\"Say hi, please.\"" }
        defer { try? FileManager.default.removeItem(at: url) }
        let error = try #require(Self.refusal { _ = try SuiteLoader.importMultiIF(path: url.path) })
        #expect(error.message.hasPrefix("the suite passes its limit here"), "\(error)")
        let line = try #require(error.line)
        #expect(line > 1_000 && line < rows / 4, "stopped at row line \(line) of \(rows + 1)")
    }

    /// A million lines that are not JSON: the first hundred problems, then where reading stopped.
    @Test func aFloodOfBadLinesStopsAfterAHundredProblems() throws {
        let url = try Self.file("bad.jsonl", count: 1_000_000) { _ in "x" }
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            _ = try SuiteLoader.importIFBench(path: url.path)
            Issue.record("a million bad lines imported")
        } catch let errors as SuiteErrors {
            #expect(errors.errors.count == 101)
            #expect(errors.errors.last?.message == "stopped reading here after 100 problems")
            #expect(errors.errors.last?.line == 100)
        }
    }

    /// One line longer than a whole suite: refused at it as it grows, not after reading it all.
    @Test(arguments: ["line.jsonl", "record.csv"])
    func aRecordLongerThanASuiteIsRefusedAtItsLine(_ name: String) throws {
        let header = name.hasSuffix(".csv") ? "key,turn_1_prompt\nk,\"" : "{\"messages\": [{\"role\": \"user\", \"content\": \""
        let url = try Self.file(name, header: header, count: 1) { _ in String(repeating: "a", count: 5 << 20) }
        defer { try? FileManager.default.removeItem(at: url) }
        let error = try #require(
            Self.refusal {
                _ = name.hasSuffix(".csv") ? try SuiteLoader.importMultiIF(path: url.path) : try SuiteLoader.importIFBench(path: url.path)
            })
        #expect(error.message.contains("longer than 4194304 bytes"), "\(error)")
        #expect(error.line == (name.hasSuffix(".csv") ? 2 : 1))
    }

    /// A FIFO (nobody writing) and a character device are refused for what they are, at once:
    /// before, a FIFO blocked and a device said "permission".
    @Test(arguments: ["fifo", "/dev/zero"])
    func whatIsNotARegularFileIsRefusedWithoutBlocking(_ kind: String) throws {
        var path = kind
        if kind == "fifo" {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString)").path
            try #require(mkfifo(path, 0o600) == 0)
        }
        defer { if kind == "fifo" { try? FileManager.default.removeItem(atPath: path) } }
        let what = kind == "fifo" ? "a FIFO (named pipe)" : "a character device"
        let ifbench = try #require(Self.refusal { _ = try SuiteLoader.importIFBench(path: path) })
        let multiIF = try #require(Self.refusal { _ = try SuiteLoader.importMultiIF(path: path) })
        for error in [ifbench, multiIF] {
            #expect(error.message == "is \(what), not a regular file: an importer reads a file whose end it can see", "\(error)")
        }
        let suite = try #require(Self.refusal { _ = try SuiteLoader.load(path: path) })
        #expect(suite.message == "is \(what), not a suite file", "\(suite)")
    }

    @Test func aLineThatIsNotUTF8IsNamed() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("latin1-\(UUID().uuidString).jsonl")
        let latin1 = [UInt8](#"{"messages": [{"role": "user", "content": "caf"#.utf8) + [0xE9] + [UInt8](#""}]}"#.utf8)
        try (Data("{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}\n".utf8) + Data(latin1)).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let error = try #require(Self.refusal { _ = try SuiteLoader.importIFBench(path: url.path) })
        #expect(error.message == "the line is not UTF-8 text" && error.line == 2, "\(error)")
    }

    /// Records come out the same whatever the chunks they arrive in: split byte by byte, a CRLF,
    /// a doubled quote and a quoted line break across every boundary.
    @Test func csvRecordsAreTheSameInAnyChunks() throws {
        let text = "a,b\r\n\"one, two\",\"say \"\"hi\"\"\nthere\"\r\nlast,\rcr,only\n\"\",x\n"
        let whole = try CSVRecords.parse(text)
        var parser = CSVRecords()
        var pieces: [CSVRecords.Record] = []
        for byte in Array(text.utf8) { pieces += try parser.feed([byte]) }
        pieces += try parser.finish()
        #expect(pieces.map(\.fields) == whole.map(\.fields))
        #expect(pieces.map(\.line) == whole.map(\.line))
        #expect(whole.map(\.fields) == [["a", "b"], ["one, two", "say \"hi\"\nthere"], ["last", ""], ["cr", "only"], ["", "x"]])
        #expect(whole.map(\.line) == [1, 2, 4, 5, 6])
    }
}
