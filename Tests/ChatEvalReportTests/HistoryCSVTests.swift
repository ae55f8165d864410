import ChatEvalHistory
import ChatEvalReport
import ChatEvalTestKit
import Foundation
import Testing

/// A history as the per-commit series table people chart elsewhere (issue 31).
@Suite struct HistoryCSVTests {
    @Test func aRowPerSeriesAndCommitWithTheStepMarkedWhereItWasFirstMeasured() throws {
        let history = ReportFixtures.history()
        let rows = try StrictCSV.parse(HistoryCSV.render(history))
        #expect(rows.first == HistoryCSV.columns)
        let ttft = rows.dropFirst().filter { $0[6] == "ttft" }
        let series = try #require(history.series.first { $0.metric.name == "ttft" })
        let measured = series.points.count
        #expect(ttft.count == measured && measured > 40, "a row per commit with results")
        #expect(ttft.allSatisfy { $0[7] == "seconds" && Double($0[14]) != nil })
        let worse = ttft.filter { $0.last == "worse" }
        let step = try #require(series.steps.first { $0.isWorse })
        #expect(worse.count == 1 && worse.first?[8] == step.firstMeasured, "\(worse)")
        #expect(rows.contains { $0[11] == "Bump llama.cpp </svg><script>x</script>" }, "the subject as given: CSV is text")
    }
}
