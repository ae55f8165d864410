import ChatEvalCore
import ChatEvalReport
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import ChatEvalTestKit
import Foundation
import Testing

/// The terminal report of `chateval run`, on records made by the runner from scripted answers:
/// verdict first, lines within 100 columns, failures before details, several models side by side.
@Suite struct RunReportTests {
    /// Long names and answers on purpose: the report must clip them, not wrap the terminal.
    let yaml = """
        name: a-suite-with-a-rather-long-name-for-a-table-cell
        gates: {min_pass_rate: 1.0}
        conversations:
          - id: a-conversation-id-that-goes-on-and-on-and-on-and-on-and-on-and-on
            tags: [recall]
            description: Recall across turns.
            turns:
              - user: "Tell me about the sea, in as many words as you like, and then some more words about it."
                checks: [{type: icontains, value: waves}]
              - user: What did I ask about?
                checks: [{type: icontains, value: sea}]
        """

    private func replies(_ answers: [String], ttft: Double) -> [ScriptedRuntime.Reply] {
        answers.map { answer in
            var metrics = ScriptedRuntime.metrics(prompt: 20, generated: 12)
            metrics.timeToFirstToken = ttft
            return .answer([answer], metrics)
        }
    }

    /// One record per model, made by the runner as `run --model a --model b` makes them.
    private func records(_ answers: [[String]], repetitions: Int = 1, yaml: String? = nil) async throws -> [RunRecord] {
        let suite = try SuiteLoader.parse(yaml ?? self.yaml, file: "s.yaml")
        let settings = RunSettings(cacheMode: .session, repetitions: repetitions, warmupConversations: 0)
        let group = answers.count > 1 ? "g1" : nil
        var finals: [RunRecord] = []
        for (index, modelAnswers) in answers.enumerated() {
            let runtime = ScriptedRuntime(replies: replies(modelAnswers, ttft: 0.1 * Double(index + 1)))
            var record = RunRecord(
                runId: ResultWriter.newRunId(), startedAt: Date(), command: ["test"], git: nil,
                machine: MachineInfo.current(), runtime: runtime.identity, modelSha256: nil, settings: settings)
            if let group { record.group = RunGroup(id: group, index: index + 1, count: answers.count, label: "model-\(index + 1).gguf") }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let writer = try ResultWriter(folder: folder, record: record, suites: [])
            let plan = RunPlan(suites: [suite], settings: settings)
            finals.append(try await SuiteRunner(runtime: runtime, plan: plan).run(into: record, writer: writer, stop: StopRequest()))
        }
        return finals
    }

    private let longAnswer =
        "The sea has waves that roll in and out all day long, and the tides follow the moon, "
        + "and the gulls cry over the water,\nand a second line follows the first."

    @Test func theVerdictComesFirstAndFailuresBeforeAnyDetail() async throws {
        let report = RunReport.render(try await records([[longAnswer, "You asked about the moon."]]))
        let lines = report.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "✗ FAIL: 1 of 1 gates failed · 1/2 checks passed · 0 runtime failures · 2 turns, 1 rep")
        let gates = try #require(lines.firstIndex(of: "gates failed"))
        let failed = try #require(lines.firstIndex(of: "failed checks (1)"))
        #expect(gates < failed)
        #expect(report.contains("✗ icontains: expected \"sea\" in the answer"))
        #expect(!report.contains("✓ icontains"))  // passing checks only with --verbose
        #expect(!report.contains("prefill t/s"))  // nor the per-turn tables
    }

    @Test func everyLineFitsOneHundredColumnsUnlessAnswersAreShownWhole() async throws {
        let records = try await records(
            [
                [longAnswer, "You asked about the moon.", longAnswer, "The moon."],
                [longAnswer, "The sea.", longAnswer, "The sea."],
            ], repetitions: 2)
        for options in [RunReportOptions(), RunReportOptions(verbose: true)] {
            for line in RunReport.render(records, options: options).split(separator: "\n") {
                #expect(DisplayWidth.of(String(line)) <= RunReport.width, "\(DisplayWidth.of(String(line))) columns: \(line)")
            }
        }
        // Whole: the failed turn's long user message and its multi-line answer, continued under
        // the first line (indented), not at the margin.
        let single = try await self.records([[longAnswer, "You asked about\nthe moon."]])
        let whole = RunReport.render(single, options: RunReportOptions(showAnswers: true))
        #expect(whole.contains("    user   What did I ask about?\n    model  You asked about\n           the moon."), "\(whole)")
        let verbose = RunReport.render(single, options: RunReportOptions(verbose: true, showAnswers: true))
        #expect(verbose.contains("1. user:   Tell me about the sea, in as many words as you like, and then some more words about it."))
        #expect(
            verbose.contains(
                "model:  The sea has waves that roll in and out all day long, and the tides follow the moon, "
                    + "and the gulls cry over the water,\n"
                    + String(repeating: " ", count: 15) + "and a second line follows the first."), "\(verbose)")
    }

    /// Wide characters (CJK, most emoji) take two terminal columns: lines are cut by columns.
    @Test func wideCharactersAreMeasuredInColumns() async throws {
        #expect(DisplayWidth.of("abc") == 3 && DisplayWidth.of("蓝色的") == 6 && DisplayWidth.of("e\u{301}") == 1)
        #expect(Format.clip("蓝色的蓝色的", 7) == "蓝色的…")
        let wide = String(repeating: "蓝色的海", count: 40)
        let records = try await records([[wide, wide], [longAnswer, "The sea."]])
        for line in RunReport.render(records, options: RunReportOptions(verbose: true)).split(separator: "\n") {
            #expect(DisplayWidth.of(String(line)) <= RunReport.width, "\(DisplayWidth.of(String(line))) columns: \(line)")
        }
    }

    @Test func twoModelsAreShownSideBySidePerSuiteAndPerTurn() async throws {
        let report = RunReport.render(try await records([[longAnswer, "You asked about the moon."], [longAnswer, "The sea."]]))
        #expect(report.contains("on 2 models"))
        #expect(report.contains("side by side (repetition 1 of each model)"))
        let table = report.split(separator: "\n").filter { $0.contains("model-1.gguf") || $0.contains("model-2.gguf") }
        #expect(table.contains { $0.contains("1/2") && $0.contains("50%") })  // model 1's suite line
        #expect(table.contains { $0.contains("2/2") && $0.contains("100%") })  // model 2's
        #expect(table.contains { $0.contains("✗") && $0.contains("100 ms") && $0.contains("You asked about the moon.") })
        #expect(table.contains { $0.contains("✓") && $0.contains("200 ms") && $0.contains("The sea.") })
    }

    @Test func aCheckFailingInSomeRepetitionsIsLabelledFlaky() async throws {
        let report = RunReport.render(try await records([[longAnswer, "The sea.", longAnswer, "The moon."]], repetitions: 2))
        #expect(unwrapped(report).contains("(failed in 1 of 2 repetitions: flaky)"))
        #expect(report.contains(" of 2 "))  // the TTFT spread over repetitions
    }

    /// A suite without gates printed "✓ PASS: no gates · 0/3 checks passed" and the Markdown and
    /// HTML reports "All gates passed.": now the checks decide, and every report says so.
    @Test func aSuiteWithoutGatesIsDecidedByItsChecksAndNeverSaysGatesPassed() async throws {
        let noGates = yaml.replacingOccurrences(of: "gates: {min_pass_rate: 1.0}\n", with: "")
        #expect(noGates != yaml)
        let failing = try await records([[longAnswer, "You asked about the moon."]], yaml: noGates)
        let report = RunReport.render(failing)
        #expect(report.hasPrefix("✗ FAIL: no gates declared, so every check had to pass · 1/2 checks passed"), "\(report)")
        #expect(unwrapped(report).contains("min_pass_rate ≥ 1 (implied: no gates declared) — found 0.5 (1 of 2 checks)"), "\(report)")
        #expect(failing[0].gatesPassed == false)
        for page in [MarkdownReport.render(runs: failing), HTMLReport.render(runs: failing)] {
            #expect(!page.contains("gates passed") && !page.contains("All gates"))
            #expect(page.contains("1 of 2 checks failed; no gates are declared, so every check had to pass."))
        }

        let passing = try await records([[longAnswer, "The sea."]], yaml: noGates)
        #expect(RunReport.render(passing).hasPrefix("✓ PASS: no gates declared, so every check had to pass · 2/2 checks passed"))
        #expect(MarkdownReport.render(runs: passing).contains("✅ **Every check passed (no gates declared, so every check had to).**"))
        #expect(passing[0].gatesPassed == true)
    }

    /// --show-answers showed only failing turns' answers, and its footer still offered --show-answers.
    @Test func showAnswersShowsEveryAnswerAndTheFooterOffersOnlyWhatIsNotOn() async throws {
        let run = try await records([["Waves, waves and waves.", "The sea."]])
        let plain = RunReport.render(run)
        #expect(!plain.contains("Waves, waves and waves.") && plain.contains("--show-answers"))
        let whole = RunReport.render(run, options: RunReportOptions(showAnswers: true))
        #expect(whole.contains("Waves, waves and waves.") && whole.contains("The sea."))
        #expect(!whole.contains("--show-answers") && whole.contains("more: --verbose"))
        // The answers alone: the per-turn table and the suite's medians are --verbose's (issue 31).
        #expect(!whole.contains("ITL p50/p95") && !whole.contains("reuse turns ≥ 2") && !whole.contains("(prefill and decode in tokens/s"))
        let verbose = RunReport.render(run, options: RunReportOptions(verbose: true, showAnswers: true))
        #expect(verbose.contains("(prefill and decode in tokens/s") && verbose.contains("reuse turns ≥ 2"))
    }

    /// Side by side, model names were cut before the quantisation ("SmolLM2-135M-In…").
    @Test func longModelNamesKeepTheirEnd() {
        #expect(Format.clipMiddle("SmolLM2-135M-Instruct.Q4_1.gguf", 15) == "SmolL…Q4_1.gguf")
        #expect(DisplayWidth.of(Format.clipMiddle("SmolLM2-135M-Instruct.Q4_1.gguf", 15)) == 15)
        #expect(Format.clipMiddle("SmolLM2-135M-Instruct.Q4_1.gguf", 15).hasSuffix("Q4_1.gguf"))
        #expect(Format.clipMiddle("short.gguf", 15) == "short.gguf")
        #expect(Format.clipMiddle("蓝色的蓝色的蓝色的", 9).hasSuffix("的") && DisplayWidth.of(Format.clipMiddle("蓝色的蓝色的蓝色的", 9)) <= 9)
    }

    /// Suite variants run side by side as a matrix whose cells are marked only where the test
    /// decides: 10 replays of 10/10 against 0/10 is worse; lines stay within 100 columns.
    @Test func variantsAreAMatrixMarkedWhereTheTestDecides() async throws {
        let variants = """
            name: tone
            gates: {min_pass_rate: 0}
            variants: [{id: plain, system: Be plain.}, {id: a-variant-with-a-long-name-that-must-be-clipped, system: Be odd.}]
            conversations:
              - id: sea
                turns:
                  - user: Tell me about the sea.
                    checks: [{type: icontains, value: waves}]
            """
        let answers = (1...10).flatMap { _ in ["Waves and tides.", "Mountains."] }
        let run = try await records([answers], repetitions: 10, yaml: variants)
        let report = RunReport.render(run)
        #expect(report.contains("matrix: 2 columns, each against column 1"), "\(report)")
        #expect(report.contains("  1  plain\n  2  a-variant-with-a-long-name-that-must-be-clipped"))
        let row = try #require(report.split(separator: "\n").first { $0.hasPrefix("tone/sea · 1") })
        #expect(row.contains("10/10 ") && row.contains("0/10▼"), "\(row)")
        for line in report.split(separator: "\n") {
            #expect(DisplayWidth.of(String(line)) <= RunReport.width, "\(line)")
        }
        #expect(HTMLReport.render(runs: run).contains("<span class=\"regression\" title=\"regression\">0/10▼</span>"))
    }

    /// Issue 44: five identical greedy replays a side whose check passes on every one of them and
    /// fails on every one of the other are a fact, as compare's exact ledger says — the matrix
    /// marked them "? too few replays" (Fisher's 5/5 against 0/5 cannot reach the matrix's level).
    @Test func matrixCellsAgreeWithTheExactLedger() async throws {
        let variants = """
            name: tone
            gates: {min_pass_rate: 0}
            variants: [{id: plain, system: Be plain.}, {id: odd, system: Be odd.}]
            conversations:
              - id: sea
                turns:
                  - user: Tell me about the sea.
                    checks: [{type: icontains, value: waves}]
            """
        let answers = (1...5).flatMap { _ in ["Waves and tides.", "Mountains."] }
        let run = try await records([answers], repetitions: 5, yaml: variants)
        let report = RunReport.render(run)
        let row = try #require(report.split(separator: "\n").first { $0.hasPrefix("tone/sea · 1") }, "\(report)")
        #expect(row.contains("0/5▼") && !row.contains("?"), "\(row)")
        #expect(HTMLReport.render(runs: run).contains("<span class=\"regression\" title=\"regression, decided exactly\">0/5▼</span>"))
        // A sampled turn is never exact: the same counts stay undecided.
        let sampled = variants.replacingOccurrences(
            of: "gates: {min_pass_rate: 0}", with: "gates: {min_pass_rate: 0}\ndefaults: {temperature: 0.7}")
        #expect(sampled != variants)
        let sampledRun = try await records([answers], repetitions: 5, yaml: sampled)
        let sampledRow = try #require(RunReport.render(sampledRun).split(separator: "\n").first { $0.hasPrefix("tone/sea · 1") })
        #expect(sampledRow.contains("0/5?"), "\(sampledRow)")
    }

    /// Issue 44: the Markdown report had no matrix, though the terminal and HTML reports do.
    @Test func theMarkdownReportHasTheMatrix() async throws {
        let variants = """
            name: tone
            gates: {min_pass_rate: 0}
            variants: [{id: plain, system: Be plain.}, {id: odd, system: Be odd.}]
            conversations:
              - {id: sea, turns: [{user: Tell me about the sea., checks: [{type: icontains, value: waves}]}]}
            """
        let run = try await records([(1...3).flatMap { _ in ["Waves and tides.", "Mountains."] }], repetitions: 3, yaml: variants)
        let markdown = MarkdownReport.render(runs: run)
        #expect(markdown.contains("### Matrix: each column against plain"), "\(markdown)")
        #expect(markdown.contains("| turn | plain | odd |"))
        #expect(markdown.contains("| tone/sea · turn 1 | 3/3 "), "\(markdown)")
    }

    /// Issue 44: a two-model run printed the ledger line twice without saying whose it was.
    @Test func eachModelHasItsOwnNamedLedgerLine() async throws {
        let report = RunReport.render(try await records([[longAnswer, "The sea."], [longAnswer, "The moon."]]))
        let ledger = report.split(separator: "\n").filter { $0.hasPrefix("ledger    ") }
        #expect(ledger.count == 2, "\(report)")
        #expect(
            ledger[0].hasPrefix("ledger    model-1.gguf: 2 turns") && ledger[1].hasPrefix("ledger    model-2.gguf: 2 turns"), "\(ledger)")
    }

    /// Issue 44: --show-answers printed every passing check too; it shows the answers and the
    /// failed checks, and passing checks stay with --verbose.
    @Test func showAnswersListsFailedChecksAndLeavesPassingOnesToVerbose() async throws {
        let run = try await records([["Waves, waves and waves.", "The moon."]])
        let whole = RunReport.render(run, options: RunReportOptions(showAnswers: true))
        #expect(whole.contains("Waves, waves and waves.") && whole.contains("✗ icontains"))
        #expect(!whole.contains("✓ icontains"), "\(whole)")
        let verbose = RunReport.render(run, options: RunReportOptions(verbose: true, showAnswers: true))
        #expect(verbose.contains("✓ icontains"))
    }

    /// Issue 44: names were cut ("a-suite-with-a-rather…", "SmolL…Q4_1.gguf"); they wrap within
    /// their column instead, whole.
    @Test func namesInTheSuiteTableAreWrappedNeverCut() async throws {
        let report = RunReport.render(try await records([[longAnswer, "The sea."], [longAnswer, "The sea."]]))
        let table = report.components(separatedBy: "\n\n").first { $0.contains("(spread: range of the repetitions") } ?? ""
        #expect(!table.contains("…"), "\(table)")
        // The first column, as wide as its rule.
        let lines = table.split(separator: "\n").map(String.init)
        let firstColumn = lines.count > 1 ? lines[1].prefix { $0 == "─" }.count : 0
        let names = lines.dropFirst(2).map { $0.prefix(firstColumn) }.joined()
        let squeezed = names.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "✓", with: "").replacingOccurrences(
            of: "✗", with: "")
        #expect(squeezed.contains("a-suite-with-a-rather-long-name-for-a-table-cell"), "\(table)")
        for line in report.split(separator: "\n") { #expect(DisplayWidth.of(String(line)) <= RunReport.width, "\(line)") }
        #expect(Format.wrapName("SmolLM2-135M-Instruct.Q4_1.gguf", width: 15) == "SmolLM2-135M-\nInstruct.Q4_1.\ngguf")
    }

    /// Issue 44: a check that passed only because the answer repeats the prompt (a base model
    /// echoing the question) was said by `validate` only; the run says it in its failures and its
    /// summary lines too, in every report.
    @Test func aPassOnAnEchoOfThePromptIsSaid() async throws {
        let echo = """
            name: capitals
            conversations:
              - id: france
                turns:
                  - user: What is the capital city of France?
                    checks: [{type: icontains, value: capital}, {type: icontains, value: paris}]
            """
        let run = try await records([["What is the capital city of France? Paris, I think."]], yaml: echo)
        let verdicts = try #require(run[0].suites[0].conversations[0].turns[0].checks)
        #expect(verdicts.map(\.echo) == ["the user message", nil])  // "paris" is in the answer's own words
        let report = RunReport.render(run)
        #expect(
            report.hasPrefix("✓ PASS: no gates declared, so every check had to pass · 2/2 checks passed (1 only on an echo of the prompt)"),
            "\(report)")
        #expect(report.contains("checks that passed only because the answer repeats the prompt (1)"), "\(report)")
        #expect(unwrapped(report).contains("✓ icontains: found \"capital\""), "\(report)")
        #expect(unwrapped(report).contains("— only because the answer repeats the user message"), "\(report)")
        for page in [MarkdownReport.render(runs: run), HTMLReport.render(runs: run)] {
            #expect(page.contains("1 check passed only because the answer repeats the prompt."), "\(page)")
            #expect(page.contains("icontains (passed on an echo)"), "\(page)")
        }
        #expect(RunSummary(run, labels: [nil]).lines[0].progressLine.contains("2/2 checks passed (1 only on an echo of the prompt)"))
        // An answer of its own passes as before, unmarked.
        let own = try await records([["Paris is the capital."]], yaml: echo)
        #expect(own[0].suites[0].conversations[0].turns[0].checks?.allSatisfy { $0.echo == nil } == true)
        #expect(!RunReport.render(own).contains("echo"))
    }

    /// Issue 44: the busy-machine warning named processes ("chateval 1.00 cores") but not which.
    @Test func busyProcessesAreNamedWithTheirIds() async throws {
        let busy = MachineLoad(
            loadAverage1: 3.2, loadAverage5: 2.0, otherProcessesCores: 1.3,
            busiest: [.init(pid: 4242, name: "swift-frontend", cores: 0.94), .init(pid: 17, name: "chateval", cores: 0.36)],
            frequencyGovernor: nil)
        #expect(busy.summary.contains("swift-frontend pid 4242 0.94 cores, chateval pid 17 0.36 cores"), "\(busy.summary)")
        var run = try await records([[longAnswer, "The sea."]])
        run[0].environment = RunEnvironment(start: busy)
        for index in run[0].suites[0].conversations.indices {
            run[0].suites[0].conversations[index].load = ReplayLoad(otherCores: 1.2, seconds: 1)
        }
        let report = RunReport.render(run)
        #expect(report.contains("busiest at the start: swift-frontend pid 4242 0.94 cores"), "\(report)")
        #expect(!report.contains("busiest at the end") && !report.contains("busiest over the run"), "no end sample: \(report)")
        // The end sample spans the run since it has a length; older records sampled the half second after it.
        var overTheRun = busy
        overTheRun.seconds = 42
        run[0].environment = RunEnvironment(start: busy, end: overTheRun)
        #expect(RunReport.render(run).contains("busiest over the run: swift-frontend pid 4242"), "\(RunReport.render(run))")
        run[0].environment = RunEnvironment(start: busy, end: busy)
        #expect(RunReport.render(run).contains("busiest at the end: swift-frontend pid 4242"), "\(RunReport.render(run))")
    }

    /// The report with wrapped lines joined again (a wrapped line continues on an indented line).
    private func unwrapped(_ report: String) -> String {
        report.replacingOccurrences(of: #"\n +"#, with: " ", options: .regularExpression)
    }
}
