import ChatEvalCore
import ChatEvalStore
import Foundation

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
