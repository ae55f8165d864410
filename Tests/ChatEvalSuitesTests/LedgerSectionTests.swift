import ChatEvalCore
import ChatEvalSuites
import Testing

@Suite struct LedgerSectionTests {
    private func parse(_ text: String) throws(SuiteErrors) -> ProjectFile {
        try ProjectFile.parse(text, source: "chateval.yaml", environment: [:])
    }

    @Test func theProjectFileSetsEachRuleAndLeavesTheRestAtTheirDefaults() throws {
        #expect(try parse("threads: 2").ledger == nil)
        let ledger = try #require(try parse("ledger:\n  answers: gate\n  reuse_efficiency: report\n").ledger)
        #expect(ledger == LedgerGates(evaluatedTokens: .gate, reuseEfficiency: .report, generatedTokens: .report, answers: .gate))
    }

    @Test(arguments: [
        ("ledger: {answers: fail}", "chateval.yaml:1:19: error: ledger.answers must be gate or report (got 'fail')"),
        ("ledger: {answer: gate}", "chateval.yaml:1:10: error: unknown key 'answer' in ledger; did you mean 'answers'?"),
    ])
    func badRulesAreLocated(_ text: String, _ expected: String) {
        do {
            _ = try parse(text)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.errors.map(\.description).first?.hasPrefix(expected) == true, "\(error.errors.map(\.description))")
        }
    }
}
