import ChatEvalCompare
import ChatEvalCore
import ChatEvalHistory
import ChatEvalStore
import Foundation

/// JUnit XML for CI test dashboards, with case names that stay the same from pipeline to
/// pipeline (CI test history and flaky-test tracking follow a case by class and name): a run's
/// case per check of each conversation over all its repetitions (`JUnitRunSuite`), with the counts
/// in the message; its failures follow the suite's gates as the exit code does. A comparison's case
/// per metric, named by the metric alone (the verdict is its outcome and message), and per check
/// or turn that newly fails. Runtime failures are errors, turns not run skipped.
///
/// Valid against the strictest common schema, Apache Ant's (windyroad `JUnit.xsd`): a bare
/// `<testsuites>`, each `<testsuite>` with `package`, `id`, `name`, `timestamp` (no zone),
/// `hostname`, counts and `time`, then `<properties>`, the test cases, `<system-out>` and
/// `<system-err>`; at most one of `skipped`/`error`/`failure` per case, each with a `type`.
/// Within GitLab's limits: names are unique within a suite (GitLab keeps only the first of
/// duplicates), at most `maximumTestCases` cases (GitLab.com parses 500,000 and allows 250,000
/// XML nodes; each case here is at most 3), messages cut to 1,000 characters and bodies to
/// 4,000, so even a huge run stays far below GitLab's 30 MB per file.
///
/// Written by hand (with `Markup.xml`) rather than with XMLCoder: five element kinds with fixed
/// attribute sets, where XMLCoder would need a Codable type and attribute mapping per element and
/// a package in every build.
public enum JUnitReport {
    /// Most test cases written; the rest are counted in the last suite's `system-out`.
    public static let maximumTestCases = 50_000

    /// A run (several when models ran side by side): a test suite per record and suite; with
    /// `comparison` (`run --baseline`), the comparison's suites follow.
    public static func render(runs records: [RunRecord], comparison: Comparison? = nil, at date: Date = Date()) -> String {
        var document = Document()
        add(runs: records, to: &document)
        if let comparison { add(comparison, at: date, to: &document) }
        return document.render()
    }

    /// A comparison: per suite, each metric a case (a regression fails it) and each check or turn
    /// that newly fails a failing case.
    public static func render(comparison: Comparison, at date: Date = Date()) -> String {
        var document = Document()
        add(comparison, at: date, to: &document)
        return document.render()
    }

    private static func add(runs records: [RunRecord], to document: inout Document) {
        for record in records {
            for suite in record.suites {
                document.add(JUnitRunSuite(suite: suite, record: record, multipleModels: records.count > 1).rendered)
            }
        }
    }

    /// The machine as every test suite's `hostname` names it: the CPU and its cores, what makes
    /// timings comparable (the host's own name is a property of a run's suites).
    static func machineDescription(_ machine: MachineInfo) -> String {
        "\(machine.cpuModel), \(machine.logicalCores) cores"
    }

    private static func add(_ comparison: Comparison, at date: Date, to document: inout Document) {
        for suite in comparison.suites {
            var verdicts: [String] = []
            var cases = suite.metrics.map { change -> Case in
                verdicts.append("\(change.metric.name): \(change.verdict.words)")
                let outcome: Case.Outcome =
                    switch change.verdict {
                    case .regression:
                        .failure(
                            type: change.verdict.words,
                            message: "\(change.metric.name) \(change.verdict.words) \(ComparisonReport.interval(change)): \(change.reason)",
                            body: "")
                    // Nothing decided: skipped, never a pass.
                    case .notMeasured, .notGated: .skipped("\(change.verdict.words): \(change.reason)")
                    // Expected by a head commit: a pass whose message keeps the change in sight.
                    case .accepted: .passed
                    // No regression: underpowered never fails a gate (`--undecided fail` is compare's exit code).
                    case .improvement, .unchanged, .notWorse, .underpowered: .passed
                    // Counts' verdicts, never a metric's (`MetricChange.verdict`); undecided is not a pass.
                    case .flaky, .undecided: .skipped("\(change.verdict.words): \(change.reason)")
                    }
                // The verdict is the outcome and its message, never part of the name: the name stays from run to run.
                return Case(classname: "chateval.compare.\(suite.name)", name: change.metric.name, time: 0, outcome: outcome)
            }
            for change in comparison.quality.regressions where change.suite == suite.name {
                let place = change.turn.map { "turn \($0)" } ?? "conversation"
                let counts = "passed \(change.basePassed)/\(change.baseTotal) on base, \(change.headPassed)/\(change.headTotal) on head"
                cases.append(
                    Case(
                        classname: "chateval.compare.\(suite.name).\(change.conversation)",
                        name: "\(place) check \(change.position): \(change.check)", time: 0,
                        outcome: .failure(
                            type: "check regression", message: counts + (change.detail.map { "; " + $0 } ?? ""),
                            body: change.answerExcerpt ?? "")))
            }
            for turn in comparison.quality.turnRegressions where turn.suite == suite.name {
                cases.append(
                    Case(
                        classname: "chateval.compare.\(suite.name).\(turn.conversation)", name: "turn \(turn.turn): answered", time: 0,
                        outcome: .failure(
                            type: "turn regression",
                            message: "answered \(turn.baseAnswered)/\(turn.baseTotal) on base, "
                                + "\(turn.headAnswered)/\(turn.headTotal) on head; \(turn.headOutcome)", body: "")))
            }
            document.add(
                Suite(
                    name: "\(suite.name) (head vs base)", hostname: comparison.head.machine, timestamp: date,
                    properties: [
                        ("base", comparison.base.commit ?? "none"), ("head", comparison.head.commit ?? "none"),
                        ("preset", comparison.settings.preset),
                    ],
                    cases: cases, output: ([ComparisonReport.headline(comparison)] + verdicts).joined(separator: "\n")))
        }
    }

    /// A history: per series, each metric a case that fails when its latest step made it worse.
    public static func render(history: History, at date: Date = Date()) -> String {
        var document = Document()
        var bySuite: [SeriesKey: [HistorySeries]] = [:]
        for series in history.series { bySuite[series.key, default: []].append(series) }
        for (key, seriesOfKey) in bySuite.sorted(by: { $0.key < $1.key }) {
            let cases = seriesOfKey.map { series -> Case in
                guard let last = series.steps.last, last.isWorse else {
                    return Case(classname: "chateval.history.\(key.suite)", name: series.metric.name, time: 0, outcome: .passed)
                }
                let suspect = history.commit(at: last.suspectPosition)
                return Case(
                    classname: "chateval.history.\(key.suite)", name: series.metric.name, time: 0,
                    outcome: .failure(
                        type: "step",
                        message:
                            "\(series.metric.name) \(HistoryReport.describe(last, metric: series.metric)) since "
                            + "\(suspect?.shortId ?? String(last.suspect.prefix(7)))",
                        body: "suspect \(last.suspect) \(suspect?.subject ?? "")"))
            }
            document.add(
                Suite(
                    name: key.label, hostname: key.machine, timestamp: date,
                    properties: [
                        ("machine", key.machine), ("model_sha256", key.modelSha256 ?? "unknown"),
                        ("commits", String(history.commits.count)),
                    ],
                    cases: cases, output: ""))
        }
        return document.render()
    }

    // MARK: The document

    struct Case {
        enum Outcome {
            case passed
            case failure(type: String, message: String, body: String)
            case error(type: String, message: String, body: String)
            case skipped(String)

            /// The message of a failure or an error (what turns a CI test red); nil otherwise.
            var problemMessage: String? {
                switch self {
                case .failure(_, let message, _), .error(_, let message, _): message
                case .passed, .skipped: nil
                }
            }
        }

        var classname: String
        var name: String
        var time: Double
        var outcome: Outcome
    }

    struct Suite {
        var name: String
        var hostname: String
        var timestamp: Date
        var properties: [(String, String)]
        var cases: [Case]
        var output: String
    }

    struct Document {
        private var suites: [Suite] = []
        private var caseCount = 0
        private var dropped = 0

        mutating func add(_ suite: Suite) {
            var suite = suite
            // GitLab keeps only the first of cases with the same class and name.
            var seen: [String: Int] = [:]
            for index in suite.cases.indices {
                let key = suite.cases[index].classname + "\u{0}" + suite.cases[index].name
                let count = seen[key, default: 0] + 1
                seen[key] = count
                if count > 1 { suite.cases[index].name += " #\(count)" }
            }
            let room = max(0, JUnitReport.maximumTestCases - caseCount)
            if suite.cases.count > room {
                dropped += suite.cases.count - room
                suite.cases = Array(suite.cases.prefix(room))
            }
            caseCount += suite.cases.count
            suites.append(suite)
        }

        func render() -> String {
            var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
            for (id, suite) in suites.enumerated() {
                let failures = suite.cases.filter { if case .failure = $0.outcome { true } else { false } }.count
                let errors = suite.cases.filter { if case .error = $0.outcome { true } else { false } }.count
                let skipped = suite.cases.filter { if case .skipped = $0.outcome { true } else { false } }.count
                let time = suite.cases.reduce(0) { $0 + $1.time }
                let name = nonEmpty(suite.name, "chateval")
                xml +=
                    "  <testsuite package=\"chateval\" id=\"\(id)\" name=\"\(attr(name))\" "
                    + "timestamp=\"\(UTCTimestamp.dateTime(suite.timestamp))\" "
                    + "hostname=\"\(attr(nonEmpty(suite.hostname, "localhost")))\" tests=\"\(suite.cases.count)\" failures=\"\(failures)\" "
                    + "errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(seconds(time))\">\n"
                xml += "    <properties>\n"
                for (key, value) in suite.properties {
                    xml += "      <property name=\"\(attr(key))\" value=\"\(attr(value))\"/>\n"
                }
                xml += "    </properties>\n"
                for testCase in suite.cases {
                    let opening =
                        "    <testcase classname=\"\(attr(nonEmpty(testCase.classname, "chateval")))\" "
                        + "name=\"\(attr(nonEmpty(testCase.name, "case")))\" time=\"\(seconds(testCase.time))\""
                    switch testCase.outcome {
                    case .passed:
                        xml += opening + "/>\n"
                    case .failure(let type, let message, let body), .error(let type, let message, let body):
                        let element = if case .failure = testCase.outcome { "failure" } else { "error" }
                        xml +=
                            opening
                            + ">\n      <\(element) type=\"\(attr(nonEmpty(type, element)))\" "
                            + "message=\"\(attr(Markup.cut(message, 1_000)))\">"
                            + Markup.xml(Markup.cut(body, 4_000)) + "</\(element)>\n    </testcase>\n"
                    case .skipped(let reason):
                        xml += opening + ">\n      <skipped message=\"\(attr(Markup.cut(reason, 1_000)))\"/>\n    </testcase>\n"
                    }
                }
                var output = suite.output
                if id == suites.count - 1 && dropped > 0 {
                    output +=
                        "\n\(dropped) more test cases not written (at most \(JUnitReport.maximumTestCases) per report); "
                        + "the result file holds them all"
                }
                xml += "    <system-out>\(Markup.xml(output))</system-out>\n    <system-err></system-err>\n  </testsuite>\n"
            }
            return xml + "</testsuites>\n"
        }

        private func attr(_ text: String) -> String { Markup.xml(text, attribute: true) }

        private func nonEmpty(_ text: String, _ fallback: String) -> String {
            text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? fallback : text
        }

        private func seconds(_ value: Double) -> String {
            value.isFinite && value >= 0 ? String(format: "%.6f", value) : "0"
        }
    }
}
