import ChatEvalCore
import ChatEvalStore
import Foundation

/// What a run under load prints: one row per concurrency level.
public enum LoadReport {
    public static func table(_ levels: [LoadSummary], indent: String = "") -> String {
        var table = TextTable([
            .init("concurrency"), .init("requests"), .init("errors"), .init("req/s"), .init("out tok/s"),
            .init("TTFT p50"), .init("TTFT p95"), .init("TTFT p99"), .init("ITL p50"), .init("ITL p95"), .init("ITL p99"),
            .init("goodput"), .init("SLO", .left),
        ])
        for level in levels {
            let ttft = level.timeToFirstToken, itl = level.interTokenLatency
            let objectives =
                level.objectives.isEmpty
                ? (level.goodput == nil ? "–" : "")
                : level.objectives.map { "\($0.objective) \($0.met ? "met" : "MISSED")" }.joined(separator: ", ")
            table.add([
                String(level.concurrency), String(level.requests),
                level.failedRequests == 0 ? "0" : "\(level.failedRequests) (\(Format.percent(level.errorRate)))",
                Format.rate(level.requestsPerSecond), Format.rate(level.outputTokensPerSecond),
                Format.duration(ttft?.p50), Format.duration(ttft?.p95), Format.duration(ttft?.p99),
                Format.duration(itl?.p50), Format.duration(itl?.p95), Format.duration(itl?.p99),
                level.goodput.map { "\(Format.rate($0)) req/s" } ?? "–", objectives,
            ])
        }
        return table.render(indent: indent)
    }

    /// A self-contained SVG chart of TTFT p95 (y) against output tokens/s (x), one point per
    /// level labelled with its concurrency, joined in order: where latency turns up as throughput
    /// stops growing is the server's knee. Every text is XML-escaped.
    public static func chart(_ levels: [LoadSummary], title: String) -> String {
        let width = 640.0, height = 400.0
        let left = 70.0, right = 20.0, top = 40.0, bottom = 50.0
        let points = levels.compactMap { level in level.timeToFirstToken.map { (level.concurrency, level.outputTokensPerSecond, $0.p95) } }
        let maxX = niceCeiling(points.map(\.1).max() ?? 1), maxY = niceCeiling(points.map(\.2).max() ?? 1)
        func x(_ value: Double) -> Double { left + (width - left - right) * value / maxX }
        func y(_ value: Double) -> Double { height - bottom - (height - top - bottom) * value / maxY }
        func number(_ value: Double) -> String { String(format: "%.1f", value) }

        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(number(width / 2))" y="22" text-anchor="middle" font-size="14">\(Markup.xml(title))</text>

            """
        for step in 0...4 {
            let fraction = Double(step) / 4
            let gx = x(maxX * fraction), gy = y(maxY * fraction)
            svg +=
                "<line x1=\"\(number(gx))\" y1=\"\(number(top))\" x2=\"\(number(gx))\" y2=\"\(number(height - bottom))\" "
                + "stroke=\"#e0e0e0\"/>\n"
            svg +=
                "<line x1=\"\(number(left))\" y1=\"\(number(gy))\" x2=\"\(number(width - right))\" y2=\"\(number(gy))\" "
                + "stroke=\"#e0e0e0\"/>\n"
            svg +=
                "<text x=\"\(number(gx))\" y=\"\(number(height - bottom + 16))\" "
                + "text-anchor=\"middle\">\(Markup.xml(Format.rate(maxX * fraction)))</text>\n"
            svg +=
                "<text x=\"\(number(left - 6))\" y=\"\(number(gy + 4))\" "
                + "text-anchor=\"end\">\(Markup.xml(Format.duration(maxY * fraction)))</text>\n"
        }
        svg +=
            "<text x=\"\(number((left + width - right) / 2))\" y=\"\(number(height - 12))\" text-anchor=\"middle\">output tokens/s</text>\n"
        svg +=
            "<text transform=\"translate(16 \(number((top + height - bottom) / 2))) rotate(-90)\" text-anchor=\"middle\">TTFT p95</text>\n"
        if points.count > 1 {
            let path = points.map { "\(number(x($0.1))),\(number(y($0.2)))" }.joined(separator: " ")
            svg += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"#3366cc\" stroke-width=\"2\"/>\n"
        }
        for (concurrency, throughput, latency) in points {
            svg += "<circle cx=\"\(number(x(throughput)))\" cy=\"\(number(y(latency)))\" r=\"4\" fill=\"#3366cc\"/>\n"
            svg += "<text x=\"\(number(x(throughput) + 6))\" y=\"\(number(y(latency) - 6))\">\(Markup.xml("c=\(concurrency)"))</text>\n"
        }
        return svg + "</svg>\n"
    }

    /// The next value above `value` among 1, 2, 5 × 10^k (for axes); 1 for nothing positive.
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let magnitude = pow(10, floor(log10(value)))
        for step in [1.0, 2, 5, 10] where step * magnitude >= value { return step * magnitude }
        return 10 * magnitude
    }
}
