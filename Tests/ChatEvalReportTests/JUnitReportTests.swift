import ChatEvalCore
import ChatEvalReport
import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

/// The JUnit XML, checked by a real consumer (junitparser) and against the Ant JUnit schema
/// (xmllint), for runs, comparisons and histories.
@Suite struct JUnitReportTests {
    struct Summary: Decodable {
        struct Suite: Decodable {
            var name: String
            var tests: Int
            var failures: Int
            var errors: Int
            var skipped: Int
            var cases: [Case]
        }
        struct Case: Decodable {
            var classname: String
            var name: String
            var result: String
            var message: String?
        }
        var suites: [Suite]
    }

    /// Validates `xml` against scripts/schemas/junit-ant.xsd and reads it with junitparser.
    func check(_ xml: String) async throws -> Summary {
        let file = try ReportFixtures.temporaryFile("report.xml", xml)
        defer { try? FileManager.default.removeItem(at: file) }
        let xmllint = try ReportFixtures.tool("/usr/bin/xmllint")
        let validation = try await ReportFixtures.run(xmllint, ["--noout", "--schema", "scripts/schemas/junit-ant.xsd", file.path])
        #expect(validation.status == 0, "xmllint: \(validation.stderr)")
        let python = try ReportFixtures.tool(ReportFixtures.cacheFolder + "/report-tools/venv/bin/python")
        let parsed = try await ReportFixtures.run(python, ["scripts/junit-summary.py", file.path])
        try #require(parsed.status == 0, "junitparser: \(parsed.stderr)")
        return try JSONDecoder().decode(Summary.self, from: Data(parsed.stdout.utf8))
    }

    @Test func aRunIsValidAndJUnitParserReadsChecksGatesAndRuntimeFailures() async throws {
        let record = ReportFixtures.run()
        let xml = JUnitReport.render(runs: [record])
        let summary = try await check(xml)
        #expect(summary.suites.map(\.name) == ["smoke", "math"])
        let math = try #require(summary.suites.last)
        // 2 conversations × 3 turns, one check each, less the failed and skipped turns' checks;
        // the failed turn is an error, the skipped one skipped; one gate.
        #expect(math.tests == 4 + 2 + 1)
        #expect(math.errors == 1 && math.skipped == 1)
        #expect(math.failures == 2, "the failing check and the failed gate")
        #expect(math.cases.contains { $0.result == "error" && $0.message?.contains("5000 tokens") == true })
        #expect(
            math.cases.contains {
                $0.classname == "chateval.math.gates" && $0.result == "failure" && $0.message?.contains("found 0.6") == true
            })
        let smoke = try #require(summary.suites.first)
        #expect(smoke.tests == 6 + 1 && smoke.failures == 1 && smoke.errors == 0)
        let names = summary.suites.flatMap { suite in suite.cases.map { suite.name + "/" + $0.classname + "/" + $0.name } }
        #expect(Set(names).count == names.count, "GitLab keeps only the first of cases with one name")
        #expect(!xml.contains("\u{1B}") && !xml.contains("\u{0}"))
        #expect(!xml.contains("<script>"), "markup from the model is escaped")
    }

    @Test func modelsSideBySideAreSuitesOfTheirOwn() async throws {
        let summary = try await check(
            JUnitReport.render(runs: [ReportFixtures.run(model: "a.gguf"), ReportFixtures.run(model: "b.gguf", seed: 2)]))
        #expect(summary.suites.map(\.name) == ["smoke (a.gguf)", "math (a.gguf)", "smoke (b.gguf)", "math (b.gguf)"])
    }

    @Test func aComparisonFailsItsRegressionsAndNewlyFailingChecks() async throws {
        let comparison = ReportFixtures.comparison()
        let summary = try await check(JUnitReport.render(comparison: comparison))
        let suite = try #require(summary.suites.first)
        #expect(suite.cases.contains { $0.name == "ttft (regression)" && $0.result == "failure" })
        #expect(suite.cases.contains { $0.name.hasPrefix("turn 1 check 1: contains") && $0.result == "failure" })
        #expect(suite.failures == comparison.metricRegressions.count + comparison.quality.regressions.count)
    }

    /// A metric without a threshold decided nothing: skipped, never passed; names say verdicts in words.
    @Test func aMetricNotGatedIsSkippedAndVerdictsAreNamedInWords() async throws {
        let summary = try await check(JUnitReport.render(comparison: try VerdictWordsTests.comparison()))
        let cases = try #require(summary.suites.first).cases
        #expect(cases.first { $0.name == "reuse-efficiency (not gated)" }?.result == "skipped")
        #expect(cases.first { $0.name == "decode-tps (not worse)" }?.result == "passed")
        #expect(!cases.contains { $0.name.contains("_") })
    }

    @Test func aHistoryFailsASeriesWhoseLatestStepIsWorse() async throws {
        let summary = try await check(JUnitReport.render(history: ReportFixtures.history()))
        let cases = summary.suites.flatMap(\.cases)
        #expect(cases.first { $0.name == "ttft" }?.result == "failure")
        #expect(cases.first { $0.name == "ttft" }?.message?.contains("since") == true)
        #expect(cases.first { $0.name == "pass-rate" }?.result == "passed")
    }

    @Test func aHugeRunStaysWithinGitLabsLimits() async throws {
        let record = ReportFixtures.hugeRun(turns: 6_000, answerLength: 2_000)
        var many = record
        // 60,000 checks: more than a report writes.
        for suite in many.suites.indices {
            for conversation in many.suites[suite].conversations.indices {
                for turn in many.suites[suite].conversations[conversation].turns.indices {
                    many.suites[suite].conversations[conversation].turns[turn].checks = (0..<10).map {
                        Verdict(check: "c\($0)", passed: $0 != 0, detail: "d")
                    }
                }
            }
        }
        let xml = JUnitReport.render(runs: [many])
        #expect(xml.utf8.count < 30_000_000, "GitLab reads at most 30 MB per file")
        let summary = try await check(xml)
        #expect(summary.suites.reduce(0) { $0 + $1.tests } == JUnitReport.maximumTestCases)
        #expect(xml.contains("10001 more test cases not written"), "60,000 checks and a gate, 50,000 written")
    }
}
