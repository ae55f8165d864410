import ChatEvalCore
import ChatEvalStore
import Foundation
import Testing

@testable import ChatEvalCompare

/// Issue 34: one verdict vocabulary for metrics, check and turn counts and matrix cells
/// (`ChangeVerdict`, where there were three). Files written before read unchanged, and every
/// verdict has words of its own for the reports.
@Suite struct ChangeVerdictTests {
    /// Every verdict a result or comparison file holds, as the metrics' verdicts (first eight) and
    /// the counts' (last two, and the first three again) were written before, with its words.
    static let written: [(json: String, words: String)] = [
        ("regression", "regression"), ("improvement", "improvement"), ("unchanged", "unchanged"), ("not_worse", "not worse"),
        ("underpowered", "underpowered"), ("not_measured", "not measured"), ("not_gated", "not gated"), ("accepted", "accepted"),
        ("flaky", "flaky"), ("undecided", "undecided"),
    ]

    /// A metric change and a check change as comparison files on disk hold them, each verdict in
    /// turn: every one decodes, keeps its words, and encodes back to the same spelling.
    @Test func everyVerdictWrittenBeforeDecodesInAMetricAndACheckAndEncodesBackUnchanged() throws {
        for (json, words) in Self.written {
            let metric = """
                {"metric": "ttft", "base_count": 4, "head_count": 4, "scale": "relative", "verdict": "\(json)", "reason": "r"}
                """
            let check = """
                {"suite": "s", "conversation": "c", "turn": 1, "position": 1, "check": "contains", "base_passed": 3,
                 "base_total": 3, "head_passed": 0, "head_total": 3, "verdict": "\(json)"}
                """
            let decodedMetric = try ResultWriter.makeDecoder().decode(MetricChange.self, from: Data(metric.utf8))
            let decodedCheck = try ResultWriter.makeDecoder().decode(CheckChange.self, from: Data(check.utf8))
            #expect(decodedMetric.verdict == decodedCheck.verdict)
            #expect(decodedCheck.verdict.words == words, "\(json)")
            let encoded = try ResultWriter.makeEncoder(pretty: false).encode(decodedCheck)
            #expect(String(decoding: encoded, as: UTF8.self).contains("\"verdict\":\"\(json)\""), "\(json)")
        }
    }

    /// Each verdict has a JSON spelling and words of its own, and the words are for people: no
    /// underscore. (The compiler refuses two cases with one raw value, so only the words are checked for that.)
    @Test func eachVerdictIsWrittenAndHasItsOwnWordsWithoutAnUnderscore() {
        let all = ChangeVerdict.allCases
        #expect(Set(all.map(\.rawValue)) == Set(Self.written.map(\.json)), "a new verdict needs a line in `written`")
        #expect(Set(all.map(\.words)).count == all.count, "\(all.map(\.words))")
        for verdict in all { #expect(!verdict.words.isEmpty && !verdict.words.contains("_"), "\(verdict.words)") }
    }

    /// comparison.schema.json lists a metric's verdicts and a count's; between them, every verdict
    /// the type has, and no other.
    @Test func theSchemaListsEveryVerdictForMetricsOrCounts() throws {
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: ComparisonSchemaTests.schemaURL)) as? [String: Any])
        let definitions = try #require(schema["$defs"] as? [String: Any])
        let change = try #require((definitions["change"] as? [String: Any])?["properties"] as? [String: Any])
        let metrics = try #require((change["verdict"] as? [String: Any])?["enum"] as? [String])
        let counts = try #require((definitions["countVerdict"] as? [String: Any])?["enum"] as? [String])
        #expect(Set(metrics + counts) == Set(ChangeVerdict.allCases.map(\.rawValue)))
        #expect(!metrics.contains("flaky") && !metrics.contains("undecided"), "a metric is never flaky or undecided")
    }
}
