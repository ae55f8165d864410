import ChatEvalCore
import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

@testable import ChatEvalReport

/// The HTML charts read: each conversation its own series, a marker on every value, round ticks,
/// axes from zero for times and rates, every x position labelled unless they would overlap.
@Suite struct ChartTests {
    /// Polylines and their point counts in `svg`.
    private func polylines(_ svg: String) -> [Int] {
        svg.components(separatedBy: "<polyline points=\"").dropFirst().map { $0.prefix { $0 != "\"" }.split(separator: " ").count }
    }

    private func ticks(_ svg: String) -> [String] {
        // The y axis's labels: right-aligned at the plot's left edge (x labels sit under the plot).
        svg.components(separatedBy: "<text x=\"58.0\"").dropFirst().filter { $0.contains("class=\"tick\" text-anchor=\"end\">") }.map {
            String($0.components(separatedBy: "text-anchor=\"end\">")[1].prefix { $0 != "<" })
        }
    }

    /// Two conversations of three turns each: two polylines of three points, never one of six.
    @Test func turnsOfDifferentConversationsAreNeverJoined() {
        let svg = SVGChart.lines(
            title: "TTFT", unit: "ms", lines: [SVGChart.Line(name: "m", values: [120, 40, 45, 300, 50, 55])],
            xLabels: ["#1", "#2", "#3", "#1", "#2", "#3"], groups: [("first", 0), ("second", 3)], fromZero: true
        ) { String(format: "%.0f", $0) }
        #expect(polylines(svg) == [3, 3])
        #expect(svg.components(separatedBy: "<circle").count - 1 == 6)  // a marker on every value
        #expect(svg.contains(">first</text>") && svg.contains(">second</text>"))
        for label in ["#1", "#2", "#3"] { #expect(svg.components(separatedBy: ">\(label)</text>").count - 1 == 2) }
    }

    /// Issue 44: a name too long for the chart is cut at its end, never in the middle, and keeps
    /// its whole text in a tooltip; a name that fits has none.
    @Test func aCutNameKeepsItsWholeTextInATooltip() {
        let long = "instruction-phrasing-with-a-rather-long-name"
        let svg = SVGChart.lines(
            title: "TTFT", unit: "ms", lines: [SVGChart.Line(name: "m", values: [120, 40, 45, 300])],
            xLabels: ["#1", "#2", "#1", "#2"], groups: [(long, 0), ("short", 2)], fromZero: true
        ) { String(format: "%.0f", $0) }
        #expect(svg.contains(">\(long.prefix(23))…<title>\(long)</title></text>"), "\(svg)")
        #expect(svg.contains(">short</text>"))
    }

    /// The ticks were 104.8, 1618.3, 3131.8 ms and a decode axis began at −1 t/s.
    @Test func ticksAreRoundAndRatesStartAtZero() {
        let ttft = SVGChart.lines(
            title: "TTFT", unit: "ms", lines: [SVGChart.Line(name: "m", values: [104.8, 3131.8, 900])], xLabels: ["#1", "#2", "#3"],
            fromZero: true
        ) { String(format: "%.0f", $0) }
        #expect(ticks(ttft) == ["0", "1000", "2000", "3000", "4000"])
        let decode = SVGChart.lines(
            title: "decode", unit: "tokens/s", lines: [SVGChart.Line(name: "m", values: [41, 43, 42])], xLabels: ["#1", "#2", "#3"],
            fromZero: true
        ) { String(format: "%.0f", $0) }
        #expect(ticks(decode).first == "0" && !ticks(decode).contains { $0.hasPrefix("-") })
        // Without fromZero the axis hugs the values, still on round ticks.
        let axis = SVGChart.niceAxis(low: 41, high: 43)
        #expect(axis.ticks == [41, 41.5, 42, 42.5, 43])
        // A constant series still gets an axis around it.
        #expect(SVGChart.niceAxis(low: 5, high: 5).ticks.count >= 3)
    }

    /// History labelled only its first and last commit; now every one, thinned where they would overlap.
    @Test func everyPositionIsLabelledUnlessTheLabelsWouldOverlap() {
        func labels(_ count: Int) -> Int {
            let svg = SVGChart.lines(
                title: "t", unit: "", lines: [SVGChart.Line(name: "m", values: (0..<count).map(Double.init))],
                xLabels: (0..<count).map { String(format: "%07x", $0 * 7919) }
            ) { String(format: "%.0f", $0) }
            return svg.components(separatedBy: "y=\"228.0\" class=\"tick\"").count - 1
        }
        #expect(labels(8) == 8)
        let many = labels(60)
        #expect(many > 6 && many < 60, "\(many) of 60 labelled")
    }
}

/// The line a verbose report shows under a turn that re-evaluated what its cache held.
@Suite struct ReuseLineTests {
    @Test func aMissIsShownWithItsCostCauseAndDivergence() throws {
        let metrics = TurnMetrics(
            promptTokens: 100, reusedTokens: 60, generatedTokens: 4, timeToFirstToken: 0.2, prefillTime: 0.1, decodeTime: 0.1,
            totalTime: 0.3,
            interTokenLatencies: [], stopReason: .endOfGeneration, reusableTokens: 80,
            reuseMiss: ReuseMiss(
                cause: .previousAnswerRewritten, position: 60, before: "is Paris", cached: ".\n<|im_end|>", sent: "<|im_end|>"))
        let line = try #require(ReuseLine.render(metrics, indent: "   "))
        let joined = line.replacingOccurrences(of: "\n     ", with: " ")
        #expect(joined.hasPrefix("   reuse 60 of 80 reusable tokens (75%): 20 evaluated again, ≈ 50 ms; the template rewrites"), "\(line)")
        #expect(joined.contains(#"after "is Paris" the cache held ".\n<|im_end|>" and the prompt "<|im_end|>""#), "\(line)")
        for row in line.split(separator: "\n") { #expect(DisplayWidth.of(String(row)) <= RunReport.width) }
        var whole = metrics
        whole.reusedTokens = 80
        #expect(ReuseLine.render(whole, indent: "") == nil)
    }
}

/// The HTML turn table's stacked bar of where the first token's time went.
@Suite struct FirstTokenBarTests {
    @Test func theSegmentsSpanTheBarInProportion() {
        var metrics = TurnMetrics(
            promptTokens: 100, reusedTokens: 60, generatedTokens: 4, timeToFirstToken: 0.1, prefillTime: 0.08, decodeTime: 0.1,
            totalTime: 0.2,
            interTokenLatencies: [], stopReason: .endOfGeneration)
        #expect(HTMLReport.firstTokenBar(metrics) == "")  // not measured: no bar
        metrics.firstTokenParts = FirstTokenParts(
            template: 0.01, tokenize: 0.01, prefill: 0.08, reevaluated: 0.02, firstSample: 0, other: 0)
        let bar = HTMLReport.firstTokenBar(metrics)
        let widths = bar.components(separatedBy: "width=\"").dropFirst(2).compactMap { Double($0.prefix { $0 != "\"" }) }
        #expect(widths == [9, 9, 54, 18], "\(bar)")  // template, tokenize, new prefill, re-evaluated: 90 px in all
        #expect(bar.contains("<title>re-evaluating tokens the cache lost 20 ms</title>"))
        #expect(!bar.contains("<title>first token"))  // empty parts draw nothing
    }

    /// Served: the server's prefill (its lost-cache share in red) and what it does not break down.
    @Test func aServedTurnsBarStopsAtWhatTheServerTells() {
        var metrics = TurnMetrics(
            promptTokens: 100, reusedTokens: 40, generatedTokens: 4, timeToFirstToken: 0.1, prefillTime: 0.06, decodeTime: 0.1,
            totalTime: 0.2, interTokenLatencies: [], stopReason: .endOfGeneration,
            server: ServerFigures(prefillTime: 0.06, usageReported: true, contentDeltas: 4), reusableTokens: 60)
        let bar = HTMLReport.firstTokenBar(metrics)
        let widths = bar.components(separatedBy: "width=\"").dropFirst(2).compactMap { Double($0.prefix { $0 != "\"" }) }
        // 60 evaluated in 60 ms, 20 of them lost cache: 20 ms red, 40 ms blue, 40 ms not broken down.
        #expect(widths == [36, 18, 36], "\(bar)")
        #expect(bar.contains("<title>not broken down by the server"))
        metrics.server?.prefillTime = nil
        #expect(HTMLReport.firstTokenBar(metrics) == "", "no timings: no bar")
    }
}

/// Issue 44: the turn table's TTFT bars were drawn the same length whatever the TTFT. Read from
/// the page's SVG: each bar's length is its TTFT against the suite's longest, on an axis the
/// column's header names.
@Suite struct FirstTokenBarScaleTests {
    @Test func barLengthsAreProportionalToTheTimeToFirstToken() throws {
        var synthetic = SyntheticRuns(seed: 3, noise: 0.3)
        var record = synthetic.record(runId: "bars", commit: SyntheticRuns.commitID(1), suites: ["smoke"], conversations: 2, turns: 3)
        var ttfts: [Double] = []
        for conversation in record.suites[0].conversations.indices {
            for turn in record.suites[0].conversations[conversation].turns.indices {
                guard var metrics = record.suites[0].conversations[conversation].turns[turn].metrics else { continue }
                let t = metrics.timeToFirstToken
                metrics.firstTokenParts = FirstTokenParts(
                    template: 0.1 * t, tokenize: 0.1 * t, prefill: 0.6 * t, reevaluated: 0.1 * t, firstSample: 0.2 * t, other: 0)
                record.suites[0].conversations[conversation].turns[turn].metrics = metrics
                ttfts.append(t)
            }
        }
        let page = HTMLReport.render(runs: [record])
        let longest = try #require(ttfts.max())
        #expect(page.contains("TTFT<br><span class=\"note\">bar: 0 to \(Format.duration(longest)) at full width</span>"), "axis named")
        let bars = page.components(separatedBy: "<svg class=\"parts\"").dropFirst().map { $0.components(separatedBy: "</svg>")[0] }
        #expect(bars.count == ttfts.count)
        var lengths: [Double] = []
        for (bar, ttft) in zip(bars, ttfts) {
            // Every segment's width, the bar's length their sum; the axis line spans the full 90.
            let widths = bar.components(separatedBy: "<rect ").dropFirst().compactMap { rect in
                rect.components(separatedBy: "width=\"").dropFirst().first.flatMap { Double($0.prefix { $0 != "\"" }) }
            }
            let length = widths.reduce(0, +)
            lengths.append(length)
            #expect(abs(length - 90 * ttft / longest) <= 0.25, "TTFT \(ttft) of \(longest): \(length) px")
            #expect(bar.contains("x2=\"90\""), "the axis")
        }
        #expect(Set(lengths.map { Int($0.rounded()) }).count > 1, "bars of different TTFTs differ: \(lengths)")
    }
}
