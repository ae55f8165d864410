import ChatEvalCompare
import ChatEvalCore
import Foundation

/// Inline SVG charts for the HTML report: no script, no external file, every label escaped.
enum SVGChart {
    /// A name as a text element's content, escaped: whole when it fits `limit` characters, else
    /// cut at the end with the whole name in a tooltip (`<title>`), never lost.
    static func named(_ name: String, _ limit: Int) -> String {
        let cut = Markup.cut(name, limit)
        return Markup.html(cut) + (cut == Secrets.redact(name) ? "" : "<title>\(Markup.html(name))</title>")
    }

    struct Line {
        var name: String
        /// One value per x position; nil leaves a gap.
        var values: [Double?]
        /// Optional band (e.g. the interquartile range) around each value.
        var band: [(Double, Double)?]? = nil
    }

    struct Marker {
        var x: Int
        var label: String
        var isWorse: Bool
    }

    static let palette = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2"]
    static let width = 760.0, height = 240.0
    static let left = 64.0, right = 16.0, top = 28.0, bottom = 36.0

    /// A line chart over x = 0..<count: one polyline per line with a marker on every value (gaps
    /// and `groupStarts` split it: turns of different conversations are never joined), optional
    /// bands, vertical markers, a y axis on "nice" ticks (1, 2 or 5 × 10ⁿ) and a label under every
    /// x position, thinned to every k-th where they would overlap. `groups` name runs of positions
    /// (a conversation's turns) under the labels. `fromZero`: the axis starts at 0 (times, rates
    /// and shares, whose zero is meaningful). `bounds`: the values' possible range (0...100 for a
    /// percentage), which the axis never exceeds.
    static func lines(
        title: String, unit: String, lines: [Line], xLabels: [String], groups: [(label: String, start: Int)] = [],
        markers: [Marker] = [], bounds: ClosedRange<Double>? = nil, fromZero: Bool = false, format: (Double) -> String
    ) -> String {
        let count = max(xLabels.count, lines.map(\.values.count).max() ?? 0)
        let all = lines.flatMap { line in line.values.compactMap { $0 } + (line.band ?? []).compactMap { $0 }.flatMap { [$0.0, $0.1] } }
            .filter(\.isFinite)
        guard count > 0, let low = all.min(), let high = all.max() else {
            return "<p class=\"empty\">\(Markup.html(title)): no values.</p>"
        }
        let axis = lineAxis(low: fromZero ? min(0, low) : low, high: high, bounds: bounds)
        let plot = LinePlot(count: count, minimum: axis.minimum, maximum: axis.maximum)
        let height = self.height + (groups.isEmpty ? 0.0 : 14.0)

        var svg = "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\">"
        svg += "<title>\(Markup.html(title))</title>"
        svg +=
            "<text x=\"\(number(left))\" y=\"16\" "
            + "class=\"title\">\(Markup.html(title))\(unit.isEmpty ? "" : " (" + Markup.html(unit) + ")")</text>"
        for value in axis.ticks {
            let y = number(plot.y(value))
            svg += "<line x1=\"\(number(left))\" x2=\"\(number(width - right))\" y1=\"\(y)\" y2=\"\(y)\" class=\"grid\"/>"
            svg +=
                "<text x=\"\(number(left - 6))\" y=\"\(number(plot.y(value) + 4))\" class=\"tick\" "
                + "text-anchor=\"end\">\(Markup.html(format(value)))</text>"
        }
        svg += positionLabels(xLabels, plot) + groupLabels(groups, plot, height: height) + markerLines(markers, plot)
        let starts = Set(groups.map(\.start))
        for (index, line) in lines.enumerated() {
            svg += series(line, colour: palette[index % palette.count], plot, breaks: starts, xLabels: xLabels, format: format)
            if lines.count > 1 {
                // The legend in the title's row, right-aligned, one entry after another (never over the data).
                let offset = lines.indices.filter { $0 > index }.reduce(0.0) { $0 + legendWidth(lines[$1].name) }
                svg +=
                    "<text x=\"\(number(width - right - offset))\" y=\"16\" class=\"legend\" text-anchor=\"end\" "
                    + "fill=\"\(palette[index % palette.count])\">■ \(named(line.name, 28))</text>"
            }
        }
        return svg + "</svg>"
    }

    /// Where a line chart's x positions and values fall in the plot area.
    private struct LinePlot {
        var count: Int
        var minimum: Double
        var maximum: Double
        var plotWidth: Double { SVGChart.width - SVGChart.left - SVGChart.right }
        var plotHeight: Double { SVGChart.height - SVGChart.top - SVGChart.bottom }

        func x(_ index: Int) -> Double { SVGChart.left + (count == 1 ? plotWidth / 2 : plotWidth * Double(index) / Double(count - 1)) }
        func y(_ value: Double) -> Double { SVGChart.top + plotHeight * (1 - (value - minimum) / (maximum - minimum)) }
    }

    /// A coordinate as the SVG is written: one decimal.
    private static func number(_ value: Double) -> String { String(format: "%.1f", value) }

    /// The y axis of a line chart from `low` to `high` on nice ticks (`niceAxis`), kept within
    /// `bounds` (the values' possible range) when given.
    private static func lineAxis(low: Double, high: Double, bounds: ClosedRange<Double>?) -> (
        minimum: Double, maximum: Double, ticks: [Double]
    ) {
        var axis = niceAxis(low: low, high: high)
        if let bounds {
            axis.ticks = axis.ticks.filter { bounds.contains($0) }
            axis.minimum = max(axis.minimum, bounds.lowerBound)
            axis.maximum = min(axis.maximum, bounds.upperBound)
            if axis.minimum >= axis.maximum || axis.ticks.count < 2 {
                axis = (bounds.lowerBound, bounds.upperBound, niceAxis(low: bounds.lowerBound, high: bounds.upperBound).ticks)
            }
        }
        return axis
    }

    /// A label under every x position where they fit (about 6.5 px a character), else under every k-th.
    private static func positionLabels(_ xLabels: [String], _ plot: LinePlot) -> String {
        let count = plot.count
        let widest = Double(xLabels.map(\.count).max() ?? 1) * 6.5 + 8
        // (×1.5: the first label is anchored at its start and the next at its middle, so half a
        // label's width more is needed between them.)
        let every = max(1, Int((1.5 * widest * Double(count) / plot.plotWidth).rounded(.up)))
        var svg = ""
        for (index, label) in xLabels.enumerated() where index % every == 0 {
            let anchor = count == 1 ? "middle" : index == 0 ? "start" : index == count - 1 ? "end" : "middle"
            svg +=
                "<text x=\"\(number(plot.x(index)))\" y=\"\(number(self.height - 12))\" class=\"tick\" "
                + "text-anchor=\"\(anchor)\">\(Markup.html(label))</text>"
        }
        return svg
    }

    /// Each group's name under its positions (the chart being `height` tall), and a rule between groups.
    private static func groupLabels(_ groups: [(label: String, start: Int)], _ plot: LinePlot, height: Double) -> String {
        var svg = ""
        for group in groups where group.start < plot.count {
            if group.start > 0 {
                let middle = (plot.x(group.start - 1) + plot.x(group.start)) / 2
                svg +=
                    "<line x1=\"\(number(middle))\" x2=\"\(number(middle))\" y1=\"\(number(top))\" "
                    + "y2=\"\(number(self.height - bottom))\" class=\"grid\"/>"
            }
            // A group starting in the plot's right third is labelled leftwards from its start, so it stays inside.
            let rightward = plot.x(group.start) < left + plot.plotWidth * 2 / 3
            svg +=
                "<text x=\"\(number(plot.x(group.start)))\" y=\"\(number(height - 8))\" class=\"label\" "
                + "text-anchor=\"\(rightward ? "start" : "end")\">\(named(group.label, 24))</text>"
        }
        return svg
    }

    /// A dashed vertical line at each marker, red when it marks a change for the worse, with its label.
    private static func markerLines(_ markers: [Marker], _ plot: LinePlot) -> String {
        var svg = ""
        for marker in markers where marker.x < plot.count {
            let colour = marker.isWorse ? "#dc2626" : "#16a34a"
            svg +=
                "<line x1=\"\(number(plot.x(marker.x)))\" x2=\"\(number(plot.x(marker.x)))\" y1=\"\(number(top))\" "
                + "y2=\"\(number(self.height - bottom))\" stroke=\"\(colour)\" stroke-dasharray=\"4 3\" stroke-width=\"1.5\"/>"
            svg +=
                "<text x=\"\(number(plot.x(marker.x) + 4))\" y=\"\(number(top + 10))\" class=\"marker\" "
                + "fill=\"\(colour)\">\(Markup.html(marker.label))</text>"
        }
        return svg
    }

    /// One line in `colour`: its band, its polyline broken at gaps and at `breaks`, and a titled
    /// marker on every value.
    private static func series(
        _ line: Line, colour: String, _ plot: LinePlot, breaks: Set<Int>, xLabels: [String], format: (Double) -> String
    ) -> String {
        var svg = ""
        if let band = line.band {
            for segment in segments(band.map { $0 != nil }, breaks: breaks) {
                let upper = segment.map { "\(number(plot.x($0))),\(number(plot.y(band[$0]!.1)))" }
                let lower = segment.reversed().map { "\(number(plot.x($0))),\(number(plot.y(band[$0]!.0)))" }
                svg +=
                    "<polygon points=\"\((upper + lower).joined(separator: " "))\" fill=\"\(colour)\" fill-opacity=\"0.15\" "
                    + "stroke=\"none\"/>"
            }
        }
        for segment in segments(line.values.map { $0 != nil }, breaks: breaks) where segment.count > 1 {
            let points = segment.map { "\(number(plot.x($0))),\(number(plot.y(line.values[$0]!)))" }.joined(separator: " ")
            svg += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.6\"/>"
        }
        for (position, value) in line.values.enumerated() {
            guard let value else { continue }
            svg +=
                "<circle cx=\"\(number(plot.x(position)))\" cy=\"\(number(plot.y(value)))\" r=\"2.8\" fill=\"\(colour)\">"
                + "<title>\(Markup.html(line.name)) · \(Markup.html(position < xLabels.count ? xLabels[position] : "")): "
                + "\(Markup.html(format(value)))</title></circle>"
        }
        return svg
    }

    /// The width a legend entry takes, with its gap (about 6 px a character at 11 px).
    private static func legendWidth(_ name: String) -> Double { Double(min(name.count, 28) + 2) * 6.6 + 16 }

    /// An axis from about `low` to `high` on ticks 1, 2 or 5 × 10ⁿ apart (3 to 6 of them), its
    /// ends on ticks.
    static func niceAxis(low: Double, high: Double) -> (minimum: Double, maximum: Double, ticks: [Double]) {
        var (low, high) = (low, high)
        if low == high {
            let pad = max(abs(low) * 0.1, 1e-9)
            (low, high) = (low - pad, high + pad)
        }
        let step = LoadReport.niceCeiling((high - low) / 4)
        let minimum = (low / step).rounded(.down) * step
        let maximum = (high / step).rounded(.up) * step
        var ticks: [Double] = []
        var tick = minimum
        while tick <= maximum + step / 2, ticks.count < 12 {
            ticks.append(abs(tick) < step / 1e6 ? 0 : tick)
            tick += step
        }
        return (minimum, maximum, ticks)
    }

    /// A forest plot: one row per item, its estimate and interval against 0 and ± threshold.
    struct Interval {
        var label: String
        var estimate: Double
        var lower: Double
        var upper: Double
        var threshold: Double?
        var verdict: ChangeVerdict
    }

    static func intervals(title: String, rows: [Interval], format: (Double) -> String) -> String {
        guard !rows.isEmpty else { return "" }
        let rowHeight = 22.0, labelWidth = 200.0
        let height = top + rowHeight * Double(rows.count) + 24
        let finite = rows.flatMap { [$0.estimate, $0.lower, $0.upper, $0.threshold ?? 0, -($0.threshold ?? 0)] }.filter(\.isFinite)
        let extent = max(finite.map(abs).max() ?? 0.01, 0.01) * 1.1
        let plotLeft = labelWidth, plotWidth = width - labelWidth - right
        func x(_ value: Double) -> Double { plotLeft + plotWidth * (min(max(value, -extent), extent) + extent) / (2 * extent) }
        var svg = "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\">"
        svg += "<title>\(Markup.html(title))</title><text x=\"4\" y=\"16\" class=\"title\">\(Markup.html(title))</text>"
        svg +=
            "<line x1=\"\(number(x(0)))\" x2=\"\(number(x(0)))\" y1=\"\(number(top - 4))\" y2=\"\(number(height - 20))\" class=\"axis\"/>"
        svg += "<text x=\"\(number(x(-extent)))\" y=\"\(number(height - 6))\" class=\"tick\">\(Markup.html(format(-extent)))</text>"
        svg +=
            "<text x=\"\(number(x(extent)))\" y=\"\(number(height - 6))\" class=\"tick\" "
            + "text-anchor=\"end\">\(Markup.html(format(extent)))</text>"
        for (index, row) in rows.enumerated() {
            let centre = top + rowHeight * (Double(index) + 0.5)
            let colour =
                switch row.verdict {
                case .regression: "#dc2626"
                case .improvement: "#16a34a"
                // Undecided for want of replays; flaky and undecided are counts' verdicts, never a metric's.
                case .underpowered, .flaky, .undecided: "#ca8a04"
                case .unchanged, .notWorse, .notMeasured, .notGated, .accepted: "#475569"
                }
            svg +=
                "<text x=\"4\" y=\"\(number(centre + 4))\" class=\"label\">\(named(row.label, 30))</text>"
            if let threshold = row.threshold, threshold.isFinite {
                svg +=
                    "<rect x=\"\(number(x(-threshold)))\" y=\"\(number(centre - 8))\" "
                    + "width=\"\(number(x(threshold) - x(-threshold)))\" height=\"16\" class=\"band\"/>"
            }
            svg +=
                "<line x1=\"\(number(x(row.lower)))\" x2=\"\(number(x(row.upper)))\" y1=\"\(number(centre))\" "
                + "y2=\"\(number(centre))\" stroke=\"\(colour)\" stroke-width=\"2\"/>"
            svg +=
                "<circle cx=\"\(number(x(row.estimate)))\" cy=\"\(number(centre))\" r=\"4\" fill=\"\(colour)\">"
                + "<title>\(Markup.html(row.label)): \(Markup.html(format(row.estimate))) [\(Markup.html(format(row.lower))), "
                + "\(Markup.html(format(row.upper)))] \(row.verdict.words)</title></circle>"
        }
        return svg + "</svg>"
    }

    /// Runs of consecutive true positions; a run also ends before each position in `breaks`.
    private static func segments(_ present: [Bool], breaks: Set<Int> = []) -> [[Int]] {
        var result: [[Int]] = [], current: [Int] = []
        for (index, isPresent) in present.enumerated() {
            if breaks.contains(index), !current.isEmpty {
                result.append(current)
                current = []
            }
            if isPresent {
                current.append(index)
            } else if !current.isEmpty {
                result.append(current)
                current = []
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}
