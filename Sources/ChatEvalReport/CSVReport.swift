import ChatEvalCore
import ChatEvalStore
import Foundation

/// RFC 4180 CSV: fields joined by commas, records ended by CRLF; a field holding a comma, a
/// double quote, CR or LF is put in double quotes, with its quotes doubled; every other field is
/// written as it is. The text is UTF-8 when written out; nothing is escaped or dropped, so a field
/// reads back exactly as it was given.
///
/// Written by hand: quoting is a dozen lines, and a package for them (the mirror holds none for
/// CSV) would cost a fourth dependency and its build time.
public enum CSV {
    /// One field, quoted when it must be.
    public static func field(_ text: String) -> String {
        // Scalars, not Characters: CR LF is one Character, and would match neither "\r" nor "\n".
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A text cell no spreadsheet runs as a formula: one that starts with `=`, `+`, `-`, `@`, a
    /// tab or a carriage return gets a leading `'` (OWASP's advice on CSV injection); any other
    /// text is as given. Numbers go through `decimal` and `integer` instead, and stay numbers.
    public static func text(_ value: String) -> String {
        guard let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return value }
        return "'" + value
    }

    /// One record: the fields, quoted where they must be, and the CRLF that ends it.
    public static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// A number in plain decimal, whatever the locale: the shortest digits that read back as the
    /// same `Double` (Swift's own), never an exponent (`0.000012`, not `1.2e-05`), a whole number
    /// without a fraction (`2`); "" for a value that is missing or not finite.
    public static func decimal(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "" }
        return DecimalText.plain(value)
    }

    /// An integer in plain decimal; "" when missing.
    public static func integer(_ value: Int?) -> String {
        value.map(String.init) ?? ""
    }
}

/// The per-turn CSV (`--format csv`, `--output FILE.csv`): a header row, then one row for every
/// turn of every measured replay — warm-ups and replays left out for a busy machine are not
/// measured and not listed; failed and skipped turns are, with their status — run by run in the
/// order given, each run's suites, replays and turns in recorded order.
///
/// Times are seconds, rates tokens per second, memory bytes; a value the turn does not have (a
/// failed turn's timings, reuse a server did not report) is an empty field. `checks_passed` and
/// `checks_total` count the turn's own checks (a conversation's checks belong to no one turn).
/// The answer is the whole text as recorded, empty when there is none. Every text cell (ids,
/// names, status, answer) that a spreadsheet would run as a formula starts with `'` (`CSV.text`);
/// the numeric cells are plain numbers, negative ones too. (The command line shows the control
/// characters a terminal would obey escaped, as in every report: `Terminal.safeCSV`.)
public enum CSVReport {
    /// The header row's names, in column order.
    public static let columns = [
        "run_id", "commit", "model", "suite", "conversation", "repetition", "turn", "status", "failure_code",
        "time_to_first_token_s", "prefill_tokens_per_s", "decode_tokens_per_s", "inter_token_latency_p50_s",
        "inter_token_latency_p95_s", "total_time_s", "prompt_tokens", "reused_tokens", "generated_tokens", "peak_memory_bytes",
        "checks_passed", "checks_total", "answer",
    ]

    /// The header and one row per measured turn of `records`.
    public static func render(runs records: [RunRecord]) -> String {
        var text = CSV.record(columns)
        for record in records {
            let commit = record.git.flatMap { $0.shortCommit ?? $0.commit.map { String($0.prefix(7)) } } ?? ""
            for suite in record.suites {
                for conversation in suite.conversations where conversation.isMeasured {
                    let place = [record.runId, commit, record.modelLabel, suite.name, conversation.id].map(CSV.text)
                    for turn in conversation.turns {
                        let metrics = turn.metrics
                        let latency = metrics?.interTokenLatency
                        let checks = turn.checks ?? []
                        text += CSV.record(
                            place + [
                                String(conversation.repetition), String(turn.index + 1), CSV.text(turn.status.rawValue),
                                CSV.text(turn.failure?.code.rawValue ?? ""),
                                CSV.decimal(metrics?.timeToFirstToken), CSV.decimal(metrics?.prefillTokensPerSecond),
                                CSV.decimal(metrics?.decodeTokensPerSecond), CSV.decimal(latency?.p50), CSV.decimal(latency?.p95),
                                CSV.decimal(metrics?.totalTime), CSV.integer(metrics?.promptTokens), CSV.integer(metrics?.reusedTokens),
                                CSV.integer(metrics?.generatedTokens), CSV.integer(metrics?.peakResidentBytes),
                                String(checks.filter(\.passed).count), String(checks.count), CSV.text(turn.answer ?? ""),
                            ])
                    }
                }
            }
        }
        return text
    }
}
