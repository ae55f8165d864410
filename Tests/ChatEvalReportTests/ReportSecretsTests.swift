import ChatEvalCore
import ChatEvalReport
import ChatEvalStore
import Foundation
import Testing

/// A registered secret reaches no report, not even in part: every writer redacts the raw text
/// before it cuts or escapes it (issue 28: a key cut at 120, 200 or 1,000 characters, or with
/// its `_` escaped for Markdown, no longer matched and was written nearly whole).
@Suite struct ReportSecretsTests {
    /// A key in the shape of a Hugging Face token, with underscores for Markdown to escape; its
    /// random hexadecimal part is what no report may hold.
    static func registeredKey() -> (key: String, hex: String) {
        let hex = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let key = "hf_abc_DEF_" + hex
        Secrets.register(key)
        return (key, hex)
    }

    /// `record` in every human-readable format, as the command line writes it out: rendered,
    /// then redacted once more (`OutputOptions.write`).
    static func written(_ record: RunRecord) -> [String: String] {
        let turns = record.suites.flatMap { $0.conversations.flatMap(\.turns) }
        let text = RunReport.render(record) + "\n" + turns.map { AnswerLines.render($0, full: false, indent: "  ") }.joined(separator: "\n")
        return [
            "markdown": MarkdownReport.render(runs: [record]), "html": HTMLReport.render(runs: [record]),
            "junit": JUnitReport.render(runs: [record]), "text": text,
        ].mapValues(Secrets.redact)
    }

    /// Every answer and the runtime failure's message set to `text`, as a result file read back
    /// holds them (a record is written redacted only of the secrets its own process knew).
    static func record(answersAndFailure text: String) -> RunRecord {
        var record = ReportFixtures.run()
        for suite in record.suites.indices {
            for conversation in record.suites[suite].conversations.indices {
                for turn in record.suites[suite].conversations[conversation].turns.indices {
                    if record.suites[suite].conversations[conversation].turns[turn].status == .answered {
                        record.suites[suite].conversations[conversation].turns[turn].replayed.answer = text
                    }
                }
            }
        }
        record.suites[1].conversations[1].turns[1].replayed.failure?.message = text
        return record
    }

    /// Finding 10: a key straddling a writer's cut — the one-line excerpts of the text report
    /// (72 and 89 columns), Markdown's answers (120) and failures (200), JUnit's messages
    /// (1,000) — was written minus its end, which redaction no longer recognised.
    @Test(arguments: [72, 89, 120, 200, 1_000])
    func aKeyStraddlingAWritersCutIsRedactedWhole(cut: Int) {
        let (key, hex) = Self.registeredKey()
        let text = String(repeating: "a", count: cut - 25) + key + " was refused"
        for (format, written) in Self.written(Self.record(answersAndFailure: text)) {
            #expect(!written.contains(hex.prefix(8)), "\(format) holds the start of the key cut at \(cut)")
        }
    }

    /// Finding 11: Markdown escaped the key's `_` (`hf\_abc\_DEF\_…`) before the writer's
    /// redaction looked for it, so a key echoed in an answer or an error was written whole, to
    /// the report and to `$GITHUB_STEP_SUMMARY` alike.
    @Test func aKeyMarkdownWouldEscapeIsRedactedBeforeItIs() {
        let (key, hex) = Self.registeredKey()
        let written = Self.written(Self.record(answersAndFailure: "invalid key \(key)"))
        for (format, text) in written {
            #expect(!text.contains(hex), "\(format) holds the key")
        }
        #expect(written["markdown"]?.contains("\\[redacted\\]") == true, "the placeholder stands where the key was")
    }
}
