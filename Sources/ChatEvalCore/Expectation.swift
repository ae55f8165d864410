import Foundation

/// A change a commit makes on purpose, declared in its message as a git trailer:
///
///     Longer system prompt for the support bot.
///
///     ChatEval-Expect: qa ttft worse +15%
///     ChatEval-Expect: * evaluated-tokens worse +3
///     ChatEval-Expect: qa checks:icontains worse
///
/// Each trailer names a suite (`*` for every suite), what changes — a compared metric
/// (`ttft`, `decode-tps`, ...), or the exact ledger's `evaluated-tokens`, `generated-tokens`,
/// `answers`, or `checks:TYPE` (a check of that type that passes less often; `checks:*` for every
/// check of the suite) — the direction, and optionally a bound: how much of the change is this
/// commit's (tokens per turn for the ledger's token counts, `+15%` for a metric). A comparison
/// whose head's commits expect a regression reports it as **accepted**, never hidden and never
/// failed, up to the sum of the bounds of the trailers that cover it; a trailer without a bound
/// accepts a change only when its commit is the only one the head adds that changes an input of
/// the run (`otherCommitsChangingInputs` empty). Without this, a prompt change that costs 300
/// tokens on purpose turns CI red until someone switches the job off; with it unbounded, one
/// commit's trailer blessed every later commit's change too.
public struct Expectation: Codable, Sendable, Hashable, CustomStringConvertible {
    public enum Direction: String, Codable, Sendable, Hashable, CaseIterable {
        case worse, better
    }

    /// What a bound counts for a subject.
    public enum BoundUnit: Sendable, Hashable {
        /// Tokens per turn (`+3`): the ledger's token counts.
        case tokens
        /// A share of the change (`+15%`): head ÷ base − 1 for a metric compared relatively,
        /// points of the share (head − base) for `reuse-ratio` and `reuse-efficiency`.
        case relative
    }

    /// The trailer's key, matched without regard to case as git does.
    public static let trailerKey = "ChatEval-Expect"

    /// What a trailer may name besides the compared metrics: the exact ledger's quantities.
    public static let ledgerSubjects = ["evaluated-tokens", "generated-tokens", "answers", "checks"]

    /// Every subject a trailer may name (`checks` also as `checks:TYPE` and `checks:*`).
    public static var subjects: [String] {
        let metrics = Metric.compared.map(\.name)
        return metrics + ledgerSubjects.filter { !metrics.contains($0) }
    }

    /// The commit (short id) whose message holds the trailer.
    public var commit: String
    /// A suite's name, or `*` for every suite.
    public var suite: String
    /// A compared metric's name or one of `ledgerSubjects`.
    public var subject: String
    public var direction: Direction
    /// For `checks`: the check type it covers (`icontains`), `*` for every check of the suite;
    /// nil for a bare `checks` (written before checks were named: read as every check, with a warning).
    public var check: String?
    /// How much of the change the commit expects, in `boundUnit(of: subject)`: tokens per turn, or
    /// a share (0.15 for `+15%`); nil for a trailer without one.
    public var bound: Double?
    /// The other commits (short ids) the head adds that change an input the run reads (the
    /// project file or a suite file), merge commits not counted: a trailer without a bound is
    /// applied only when there are none. Nil when not looked up.
    public var otherCommitsChangingInputs: [String]?
    /// Set by a comparison: whether a change it found matched (nil before one looked).
    public var observed: Bool?
    /// Set by a comparison: each change this trailer covered that went past the sum of the
    /// bounds of the trailers covering it, said with by how much (it still fails).
    public var exceeded: [String]?

    public init(
        commit: String, suite: String, subject: String, direction: Direction, check: String? = nil, bound: Double? = nil,
        otherCommitsChangingInputs: [String]? = nil
    ) {
        self.commit = commit
        self.suite = suite
        self.subject = subject
        self.direction = direction
        self.check = check
        self.bound = bound
        self.otherCommitsChangingInputs = otherCommitsChangingInputs
    }

    /// The trailer's value as written: "qa ttft worse +15%", "qa checks:icontains worse".
    public var description: String {
        let named = check.map { "\(subject):\($0)" } ?? subject
        return "\(suite) \(named) \(direction.rawValue)" + (boundText.map { " \($0)" } ?? "")
    }

    /// The bound as written: "+3", "+15%"; nil without one.
    public var boundText: String? {
        guard let bound else { return nil }
        return Self.amountText(bound, subject: subject)
    }

    /// An amount of `subject`'s change as a trailer writes it: "+3", "+15%", "+2.5%".
    public static func amountText(_ amount: Double, subject: String) -> String {
        switch boundUnit(of: subject) {
        case .tokens: String(format: "%+.0f", amount)
        case .relative, nil: String(format: "%+.1f%%", amount * 100).replacingOccurrences(of: ".0%", with: "%")
        }
    }

    /// What a bound on `subject` counts; nil for subjects that take none (`answers`, `checks`).
    public static func boundUnit(of subject: String) -> BoundUnit? {
        switch subject {
        case "evaluated-tokens", "generated-tokens": .tokens
        case "answers", "checks": nil
        default: Metric(name: subject) == nil ? nil : .relative
        }
    }

    /// True when this expectation covers a change of `subject` (of a check of type `check`) in
    /// `suite` in `direction`. A bare `checks` and `checks:*` cover every check; `checks:TYPE`
    /// only checks of that type.
    public func covers(suite: String, subject: String, check: String? = nil, direction: Direction) -> Bool {
        guard self.suite == "*" || self.suite == suite, self.subject == subject, self.direction == direction else { return false }
        guard let own = self.check, own != "*" else { return true }
        return check?.lowercased() == own.lowercased()
    }

    /// Why this trailer accepts nothing here, with what to write instead ("2 other commits (def5678,
    /// 1234abc) change the suites' inputs; give it a bound (`+3`) so only its own change is
    /// accepted"): a trailer without a bound, expecting a change for the worse, on a head where
    /// other commits change the suites' inputs too. Nil when it applies.
    public var notApplied: String? {
        guard direction == .worse, bound == nil, let others = otherCommitsChangingInputs, !others.isEmpty else { return nil }
        let named = others.prefix(3).joined(separator: ", ") + (others.count > 3 ? ", …" : "")
        let who = others.count == 1 ? "1 other commit (\(named)) changes" : "\(others.count) other commits (\(named)) change"
        let fix =
            switch Self.boundUnit(of: subject) {
            case .tokens: "give it a bound (`+3`) so only its own change is accepted"
            case .relative: "give it a bound (`+15%`) so only its own change is accepted"
            case nil:
                "\(subject) takes no bound, so only a head whose one commit changes the inputs can expect it "
                    + "(squash the commits, or move the others to their own pull request)"
            }
        return "\(who) the suites' inputs; \(fix)"
    }

    /// Advice for a trailer that reads but should be written otherwise: a bare `checks`.
    public var advice: String? {
        guard subject == "checks", check == nil else { return nil }
        return "'\(description)' names no check and is read as checks:* (every check of the suite); "
            + "say which check: checks:TYPE, or checks:* for every check of the suite"
    }

    /// A trailer's value read: `SUITE SUBJECT worse|better [BOUND]`. A value that does not read is
    /// a sentence saying why and what to write, for a warning (a commit message in the history
    /// cannot be corrected, so it never stops a comparison).
    public static func parse(_ value: String, commit: String) -> Result<Expectation, ExpectationProblem> {
        let words = value.split(whereSeparator: \.isWhitespace).map(String.init)
        let form = "write '\(trailerKey): SUITE SUBJECT worse|better [BOUND]', e.g. '\(trailerKey): qa ttft worse +15%'"
        guard words.count == 3 || words.count == 4 else {
            return .failure(ExpectationProblem("'\(value)' is not three words and a bound; \(form)"))
        }
        guard let direction = Direction(rawValue: words[2].lowercased()) else {
            return .failure(ExpectationProblem("'\(words[2])' is not a direction (worse or better); \(form)"))
        }
        var subject = words[1].lowercased()
        var check: String?
        if subject.hasPrefix("checks:") {
            check = String(words[1].dropFirst("checks:".count))
            subject = "checks"
            guard check?.isEmpty == false else {
                return .failure(ExpectationProblem("'\(words[1])' names no check; write checks:TYPE (checks:icontains) or checks:*"))
            }
        }
        guard subjects.contains(subject) else {
            let hint =
                suggestions(for: subject, among: subjects).first.map { "did you mean '\($0)'?" }
                ?? "subjects: \(subjects.joined(separator: ", ")), checks:TYPE, checks:*"
            return .failure(ExpectationProblem("'\(words[1])' is not a metric or ledger quantity; \(hint)"))
        }
        var expectation = Expectation(commit: commit, suite: words[0], subject: subject, direction: direction, check: check)
        if words.count == 4 {
            switch readBound(words[3], subject: subject) {
            case .success(let bound): expectation.bound = bound
            case .failure(let problem): return .failure(ExpectationProblem("\(problem.message); \(form)"))
            }
        }
        return .success(expectation)
    }

    /// A bound read for `subject`: `+3` (tokens per turn) or `+15%` (a share), its sign optional
    /// and not read (the direction is the trailer's).
    static func readBound(_ word: String, subject: String) -> Result<Double, ExpectationProblem> {
        guard let unit = boundUnit(of: subject) else {
            return .failure(
                ExpectationProblem(
                    "\(subject) takes no bound ('\(word)'): a bound is tokens per turn for evaluated-tokens and generated-tokens "
                        + "(+3), or a share for a metric (+15%)"))
        }
        var text = Substring(word)
        if text.first == "+" || text.first == "-" { text = text.dropFirst() }
        let percent = text.hasSuffix("%")
        if percent { text = text.dropLast() }
        let example = unit == .tokens ? "+3 (tokens per turn)" : "+15% (of the change)"
        guard text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let number = Double(text), number > 0 else {
            return .failure(ExpectationProblem("'\(word)' is not a bound: write a number above 0, e.g. \(example)"))
        }
        switch unit {
        case .tokens:
            guard !percent, number == number.rounded() else {
                return .failure(ExpectationProblem("'\(word)' is not a bound for \(subject): it counts whole tokens per turn, e.g. +3"))
            }
            return .success(number)
        case .relative:
            guard percent else {
                return .failure(ExpectationProblem("'\(word)' is not a bound for \(subject): a metric's bound is a share, e.g. +15%"))
            }
            return .success(number / 100)
        }
    }
}
