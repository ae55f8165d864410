import ChatEvalCore
import ChatEvalStore

/// `✓ icontains: found "Paris" …` — one line per check verdict.
public enum VerdictLine {
    /// With a `width`, the line is wrapped to it, continuing under the check's name.
    public static func render(_ verdict: Verdict, indent: String, width: Int? = nil) -> String {
        let mark = verdict.isError ? "!" : (verdict.passed ? "✓" : "✗")
        let error = verdict.error.map { " [error: \($0)]" } ?? ""
        let line = "\(indent)\(mark) \(verdict.check): \(Format.excerpt(verdict.detail, limit: 140))\(error)"
        guard let width else { return line }
        return Format.wrap(line, width: width, hanging: String(repeating: " ", count: indent.count + 2))
    }
}
