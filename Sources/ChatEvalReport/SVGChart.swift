import Foundation

/// Inline SVG charts for the HTML report: no script, no external file, every label escaped.
enum SVGChart {
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

    /// A line chart over x = 0..<count: one polyline per line (gaps split it), optional bands,
    /// vertical markers, a y axis with three ticks and x labels at the ends.
    /// `bounds`: the values' possible range (0...100 for a percentage), which the axis never exceeds.
    static func lines(
        title: String, unit: String, lines: [Line], xLabels: [String], markers: [Marker] = [], bounds: ClosedRange<Double>? = nil,
        format: (Double) -> String
    ) -> String {
        let count = max(xLabels.count, lines.map(\.values.count).max() ?? 0)
        let all = lines.flatMap { line in line.values.compactMap { $0 } + (line.band ?? []).compactMap { $0 }.flatMap { [$0.0, $0.1] } }
            .filter(\.isFinite)
        guard count > 0, let low = all.min(), let high = all.max() else {
            return "<p class=\"empty\">\(Markup.html(title)): no values.</p>"
        }
        var minimum = low == high ? low - max(abs(low) * 0.1, 1e-9) : low - (high - low) * 0.05
        var maximum = low == high ? high + max(abs(high) * 0.1, 1e-9) : high + (high - low) * 0.05
        if let bounds {
            minimum = max(minimum, bounds.lowerBound)
            maximum = min(maximum, bounds.upperBound)
            if minimum >= maximum { (minimum, maximum) = (bounds.lowerBound, bounds.upperBound) }
        }
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        func x(_ index: Int) -> Double { left + (count == 1 ? plotWidth / 2 : plotWidth * Double(index) / Double(count - 1)) }
        func y(_ value: Double) -> Double { top + plotHeight * (1 - (value - minimum) / (maximum - minimum)) }
        func number(_ value: Double) -> String { String(format: "%.1f", value) }

        var svg = "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\">"
        svg += "<title>\(Markup.html(title))</title>"
        svg +=
            "<text x=\"\(number(left))\" y=\"16\" class=\"title\">\(Markup.html(title))\(unit.isEmpty ? "" : " (" + Markup.html(unit) + ")")</text>"
        for tick in 0...2 {
            let value = minimum + (maximum - minimum) * Double(tick) / 2
            svg +=
                "<line x1=\"\(number(left))\" x2=\"\(number(width - right))\" y1=\"\(number(y(value)))\" y2=\"\(number(y(value)))\" class=\"grid\"/>"
            svg +=
                "<text x=\"\(number(left - 6))\" y=\"\(number(y(value) + 4))\" class=\"tick\" text-anchor=\"end\">\(Markup.html(format(value)))</text>"
        }
        if let first = xLabels.first {
            svg += "<text x=\"\(number(x(0)))\" y=\"\(number(height - 12))\" class=\"tick\">\(Markup.html(first))</text>"
        }
        if xLabels.count > 1, let last = xLabels.last {
            svg +=
                "<text x=\"\(number(x(count - 1)))\" y=\"\(number(height - 12))\" class=\"tick\" text-anchor=\"end\">\(Markup.html(last))</text>"
        }
        for marker in markers where marker.x < count {
            let colour = marker.isWorse ? "#dc2626" : "#16a34a"
            svg +=
                "<line x1=\"\(number(x(marker.x)))\" x2=\"\(number(x(marker.x)))\" y1=\"\(number(top))\" y2=\"\(number(height - bottom))\" stroke=\"\(colour)\" stroke-dasharray=\"4 3\" stroke-width=\"1.5\"/>"
            svg +=
                "<text x=\"\(number(x(marker.x) + 4))\" y=\"\(number(top + 10))\" class=\"marker\" fill=\"\(colour)\">\(Markup.html(marker.label))</text>"
        }
        for (index, line) in lines.enumerated() {
            let colour = palette[index % palette.count]
            if let band = line.band {
                for segment in segments(band.map { $0 != nil }) {
                    let upper = segment.map { "\(number(x($0))),\(number(y(band[$0]!.1)))" }
                    let lower = segment.reversed().map { "\(number(x($0))),\(number(y(band[$0]!.0)))" }
                    svg +=
                        "<polygon points=\"\((upper + lower).joined(separator: " "))\" fill=\"\(colour)\" fill-opacity=\"0.15\" stroke=\"none\"/>"
                }
            }
            for segment in segments(line.values.map { $0 != nil }) {
                let points = segment.map { "\(number(x($0))),\(number(y(line.values[$0]!)))" }.joined(separator: " ")
                if segment.count == 1 {
                    svg +=
                        "<circle cx=\"\(number(x(segment[0])))\" cy=\"\(number(y(line.values[segment[0]]!)))\" r=\"2.5\" fill=\"\(colour)\"/>"
                } else {
                    svg += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.6\"/>"
                }
            }
            if lines.count > 1 {
                svg +=
                    "<text x=\"\(number(width - right - 160))\" y=\"\(number(top + 12 + 14 * Double(index)))\" class=\"legend\" fill=\"\(colour)\">■ \(Markup.html(Markup.cut(line.name, 28)))</text>"
            }
        }
        return svg + "</svg>"
    }

    /// A forest plot: one row per item, its estimate and interval against 0 and ± threshold.
    struct Interval {
        var label: String
        var estimate: Double
        var lower: Double
        var upper: Double
        var threshold: Double?
        var verdict: String
    }

    static func intervals(title: String, rows: [Interval], format: (Double) -> String) -> String {
        guard !rows.isEmpty else { return "" }
        let rowHeight = 22.0, labelWidth = 200.0
        let height = top + rowHeight * Double(rows.count) + 24
        let finite = rows.flatMap { [$0.estimate, $0.lower, $0.upper, $0.threshold ?? 0, -($0.threshold ?? 0)] }.filter(\.isFinite)
        let extent = max(finite.map(abs).max() ?? 0.01, 0.01) * 1.1
        let plotLeft = labelWidth, plotWidth = width - labelWidth - right
        func x(_ value: Double) -> Double { plotLeft + plotWidth * (min(max(value, -extent), extent) + extent) / (2 * extent) }
        func number(_ value: Double) -> String { String(format: "%.1f", value) }
        var svg = "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\">"
        svg += "<title>\(Markup.html(title))</title><text x=\"4\" y=\"16\" class=\"title\">\(Markup.html(title))</text>"
        svg +=
            "<line x1=\"\(number(x(0)))\" x2=\"\(number(x(0)))\" y1=\"\(number(top - 4))\" y2=\"\(number(height - 20))\" class=\"axis\"/>"
        svg += "<text x=\"\(number(x(-extent)))\" y=\"\(number(height - 6))\" class=\"tick\">\(Markup.html(format(-extent)))</text>"
        svg +=
            "<text x=\"\(number(x(extent)))\" y=\"\(number(height - 6))\" class=\"tick\" text-anchor=\"end\">\(Markup.html(format(extent)))</text>"
        for (index, row) in rows.enumerated() {
            let centre = top + rowHeight * (Double(index) + 0.5)
            let colour =
                row.verdict == "regression"
                ? "#dc2626" : row.verdict == "improvement" ? "#16a34a" : row.verdict == "underpowered" ? "#ca8a04" : "#475569"
            svg += "<text x=\"4\" y=\"\(number(centre + 4))\" class=\"label\">\(Markup.html(Markup.cut(row.label, 30)))</text>"
            if let threshold = row.threshold, threshold.isFinite {
                svg +=
                    "<rect x=\"\(number(x(-threshold)))\" y=\"\(number(centre - 8))\" width=\"\(number(x(threshold) - x(-threshold)))\" height=\"16\" class=\"band\"/>"
            }
            svg +=
                "<line x1=\"\(number(x(row.lower)))\" x2=\"\(number(x(row.upper)))\" y1=\"\(number(centre))\" y2=\"\(number(centre))\" stroke=\"\(colour)\" stroke-width=\"2\"/>"
            svg +=
                "<circle cx=\"\(number(x(row.estimate)))\" cy=\"\(number(centre))\" r=\"4\" fill=\"\(colour)\"><title>\(Markup.html(row.label)): \(Markup.html(format(row.estimate))) [\(Markup.html(format(row.lower))), \(Markup.html(format(row.upper)))] \(Markup.html(row.verdict))</title></circle>"
        }
        return svg + "</svg>"
    }

    /// Runs of consecutive true positions.
    private static func segments(_ present: [Bool]) -> [[Int]] {
        var result: [[Int]] = [], current: [Int] = []
        for (index, isPresent) in present.enumerated() {
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
