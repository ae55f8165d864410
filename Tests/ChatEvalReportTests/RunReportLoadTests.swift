import ChatEvalReport
import ChatEvalStore
import Testing

/// The terminal report `run` and `report` print: the run report alone for a run not under load,
/// followed by the levels' tables under load, and only the tables for a sweep.
@Suite struct RunReportLoadTests {
    @Test func theRunReportIsShownExceptForASweep() {
        let records = [ReportFixtures.run()]
        let plain = RunReport.render(records, options: RunReportOptions())
        #expect(RunReport.render(records, options: RunReportOptions(), loadLevels: nil) == "\n" + plain)
        // No record here was measured under load: one level shows the run report and no table, a sweep nothing.
        #expect(RunReport.render(records, options: RunReportOptions(), loadLevels: 1) == "\n" + plain + "\n")
        #expect(RunReport.render(records, options: RunReportOptions(), loadLevels: 3) == "")
    }
}
