/// A change a commit makes on purpose, declared in its message as a git trailer:
///
///     Longer system prompt for the support bot.
///
///     ChatEval-Expect: qa ttft worse
///     ChatEval-Expect: * evaluated-tokens worse
///
/// Each trailer names a suite (`*` for every suite), what changes — a compared metric
/// (`ttft`, `decode-tps`, ...), or the exact ledger's `evaluated-tokens`, `generated-tokens`,
/// `answers`, or `checks` (a check that passes less often) — and the direction. A comparison
/// whose head's commits expect a regression reports it as **accepted**, never hidden and never
/// failed; an expectation nothing matched is reported as not observed. Without this, a prompt
/// change that costs 300 tokens on purpose turns CI red until someone switches the job off.
public struct Expectation: Codable, Sendable, Hashable, CustomStringConvertible {
    public enum Direction: String, Codable, Sendable, Hashable, CaseIterable {
        case worse, better
    }

    /// The trailer's key, matched without regard to case as git does.
    public static let trailerKey = "ChatEval-Expect"

    /// What a trailer may name besides the compared metrics: the exact ledger's quantities.
    public static let ledgerSubjects = ["evaluated-tokens", "generated-tokens", "answers", "checks"]

    /// Every subject a trailer may name.
    public static var subjects: [String] { Metric.compared.map(\.name) + ledgerSubjects.filter { Metric(name: $0) == nil } }

    /// The commit (short id) whose message holds the trailer.
    public var commit: String
    /// A suite's name, or `*` for every suite.
    public var suite: String
    /// A compared metric's name or one of `ledgerSubjects`.
    public var subject: String
    public var direction: Direction
    /// Set by a comparison: whether a change it found matched (nil before one looked).
    public var observed: Bool?

    public init(commit: String, suite: String, subject: String, direction: Direction) {
        self.commit = commit
        self.suite = suite
        self.subject = subject
        self.direction = direction
    }

    /// The trailer's value as written: "qa ttft worse".
    public var description: String { "\(suite) \(subject) \(direction.rawValue)" }

    /// True when this expectation covers a change of `subject` in `suite` in `direction`.
    public func covers(suite: String, subject: String, direction: Direction) -> Bool {
        (self.suite == "*" || self.suite == suite) && self.subject == subject && self.direction == direction
    }

    /// A trailer's value read: three words, `SUITE SUBJECT worse|better`. A value that does not
    /// read is a sentence saying why and what to write, for a warning (a commit message in the
    /// history cannot be corrected, so it never stops a comparison).
    public static func parse(_ value: String, commit: String) -> Result<Expectation, ExpectationProblem> {
        let words = value.split(whereSeparator: \.isWhitespace).map(String.init)
        let form = "write '\(trailerKey): SUITE SUBJECT worse|better', e.g. '\(trailerKey): qa ttft worse'"
        guard words.count == 3 else {
            return .failure(ExpectationProblem("'\(value)' is not three words; \(form)"))
        }
        guard let direction = Direction(rawValue: words[2].lowercased()) else {
            return .failure(ExpectationProblem("'\(words[2])' is not a direction (worse or better); \(form)"))
        }
        let subject = words[1].lowercased()
        guard subjects.contains(subject) else {
            let hint =
                suggestions(for: subject, among: subjects).first.map { "did you mean '\($0)'?" }
                ?? "subjects: \(subjects.joined(separator: ", "))"
            return .failure(ExpectationProblem("'\(words[1])' is not a metric or ledger quantity; \(hint)"))
        }
        return .success(Expectation(commit: commit, suite: words[0], subject: subject, direction: direction))
    }
}
