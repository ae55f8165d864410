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
        // the failed turn's and the skipped turn's answered cases; one gate.
        #expect(math.tests == 4 + 2 + 1)
        #expect(math.skipped == 1)
        // The suite declares a gate: the gate decides, as the exit code does; the failing check
        // and the turn the runtime could not answer are listed in its system-out, not failed.
        #expect(math.failures == 1 && math.errors == 0, "the failed gate alone")
        #expect(
            math.cases.contains {
                $0.classname == "chateval.math.gates" && $0.name == "min_pass_rate" && $0.result == "failure"
                    && $0.message?.contains("found 0.6") == true
            })
        #expect(xml.contains("failed within the gates") && xml.contains("failed in 1 of 1 repetitions: the history needs 5000 tokens"))
        let smoke = try #require(summary.suites.first)
        #expect(smoke.tests == 6 + 1 && smoke.failures == 0 && smoke.errors == 0, "its gate passed")
        let names = summary.suites.flatMap { suite in suite.cases.map { suite.name + "/" + $0.classname + "/" + $0.name } }
        #expect(Set(names).count == names.count, "GitLab keeps only the first of cases with one name")
        #expect(!xml.contains("\u{1B}") && !xml.contains("\u{0}"))
        #expect(!xml.contains("<script>"), "markup from the model is escaped")
    }

    /// A suite without gates is held to every check: each failing check is a failure, a turn that
    /// failed unexpectedly an error, and the implied gates are not counted a second time.
    @Test func aSuiteWithoutGatesFailsOnEachFailingCheckAndErrsOnEachFailedTurn() async throws {
        var record = ReportFixtures.run()
        for index in record.suites.indices {
            record.suites[index].gates = [
                GateOutcome(gate: "min_pass_rate", passed: false, expected: "≥ 1", found: "0.8", implied: true)
            ]
        }
        let summary = try await check(JUnitReport.render(runs: [record]))
        let math = try #require(summary.suites.last)
        #expect(math.tests == 4 + 2, "no gate cases: the checks are the gates")
        #expect(math.failures == 1 && math.errors == 1 && math.skipped == 1)
        #expect(
            math.cases.first { $0.name == "turn 2: answered" && $0.result == "error" }?.message?.contains("failed in 1 of 1 repetitions")
                == true)
        #expect(
            math.cases.first { $0.name == "turn 1 check 1: contains" && $0.result == "failure" }?.message?.hasPrefix("passed 0 of 1")
                == true)
    }

    /// `record` with every conversation replayed `repetitions` times (the same verdicts each time).
    static func repeated(_ record: RunRecord, _ repetitions: Int) -> RunRecord {
        var record = record
        record.settings.repetitions = repetitions
        for index in record.suites.indices {
            record.suites[index].conversations = record.suites[index].conversations.flatMap { conversation in
                (1...repetitions).map { repetition in
                    var copy = conversation
                    copy.repetition = repetition
                    return copy
                }
            }
        }
        return record
    }

    /// GitLab's and Jenkins's test history follow a case by its class and name: neither may
    /// change with the repetition count; the counts go in the message (issue 31).
    @Test func caseNamesStayTheSameAcrossRunsOfDifferentRepetitionCounts() async throws {
        let twice = try await check(JUnitReport.render(runs: [Self.repeated(ReportFixtures.run(), 2)]))
        let sixTimes = try await check(JUnitReport.render(runs: [Self.repeated(ReportFixtures.run(), 6)]))
        func identities(_ summary: Summary) -> [String] {
            summary.suites.flatMap { suite in suite.cases.map { "\(suite.name)/\($0.classname)/\($0.name)" } }
        }
        #expect(identities(twice) == identities(sixTimes))
        #expect(identities(twice).count == 14, "one case per check over its repetitions, not one per repetition")
        #expect(!identities(sixTimes).contains { $0.contains("repetition") || $0.contains("#") })
        let smoke = try #require(sixTimes.suites.first)
        #expect(smoke.tests == 7 && smoke.failures == 0)
        let math = try #require(sixTimes.suites.last)
        #expect(math.cases.first { $0.name == "turn 3: answered" }?.message == "not run in 6 of 6 repetitions: turn 2 failed")
    }

    /// The head run of a comparison: one deterministic failure over 7 repetitions within passing
    /// gates was `tests="21" failures="6"`; its failures are its gates' now.
    @Test func theHeadSuitesFailuresAreItsGates() async throws {
        var synthetic = SyntheticRuns(seed: 3)
        let base = synthetic.record(
            runId: "head", commit: SyntheticRuns.commitID(2), conversations: 1, turns: 3, failing: { _, turn in turn == 1 })
        for gatePassed in [true, false] {
            var record = Self.repeated(base, 7)
            record.suites[0].gates = [
                GateOutcome(
                    gate: "min_pass_rate", passed: gatePassed, expected: gatePassed ? "≥ 0.6" : "≥ 0.9", found: "0.667 (14 of 21 checks)")
            ]
            let xml = JUnitReport.render(runs: [record], comparison: ReportFixtures.comparison())
            let suite = try #require(try await check(xml).suites.first)
            #expect(suite.tests == 3 + 1)
            #expect(suite.failures == record.suites[0].gates.filter { !$0.passed }.count)
            #expect(xml.contains("turn 2 check 1: contains: passed 0 of 7 repetitions"))
        }
    }

    /// The run's suites and the comparison's describe their machine in one way.
    @Test func everySuiteNamesTheMachineAlike() throws {
        let xml = JUnitReport.render(runs: [ReportFixtures.run()], comparison: ReportFixtures.comparison())
        let hosts = Set(xml.split(separator: "hostname=\"").dropFirst().map { $0.prefix { $0 != "\"" } })
        #expect(hosts == ["Synthetic CPU @ 3.0GHz, 2 cores"])
        #expect(xml.contains("<property name=\"host\" value=\"runner-1\"/>"))
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
        #expect(suite.cases.contains { $0.name == "ttft" && $0.result == "failure" && $0.message?.hasPrefix("ttft regression") == true })
        #expect(suite.cases.contains { $0.name.hasPrefix("turn 1 check 1: contains") && $0.result == "failure" })
        #expect(suite.failures == comparison.metricRegressions.count + comparison.quality.regressions.count)
    }

    /// A metric without a threshold decided nothing: skipped, never passed; verdicts are said in
    /// words, in the message and the suite's output — never in the case's name, which stays.
    @Test func aMetricNotGatedIsSkippedAndVerdictsAreSaidInWords() async throws {
        let xml = JUnitReport.render(comparison: try VerdictWordsTests.comparison())
        let summary = try await check(xml)
        let cases = try #require(summary.suites.first).cases
        #expect(cases.first { $0.name == "reuse-efficiency" }?.result == "skipped")
        #expect(cases.first { $0.name == "reuse-efficiency" }?.message?.hasPrefix("not gated") == true)
        #expect(cases.first { $0.name == "decode-tps" }?.result == "passed")
        #expect(xml.contains("decode-tps: not worse"))
        #expect(!cases.contains { $0.name.contains("_") || $0.name.contains("(") })
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
