import Synchronization

/// The regex steps all the checks of one answer may spend together. `RegexLimits.stepBudget`
/// bounds one operation (about 1–2 s); without a bound per answer, 400 regex checks of a
/// catastrophic pattern would each spend a whole operation's budget (minutes for one turn).
/// `Check.evaluate` makes the answer's pool current; every regex operation of the checks draws
/// from it, and once it is spent they fail with "regex exceeded its step budget".
final class RegexStepPool: Sendable {
    /// Steps per answer: three operations' worth.
    static let perAnswer = 3 * RegexLimits.standard.stepBudget

    @TaskLocal static var current: RegexStepPool?

    private let remaining: Mutex<Int>

    init(steps: Int = perAnswer) { remaining = Mutex(steps) }

    /// Reserves up to `wanted` steps; returns how many (0 once spent).
    func take(upTo wanted: Int) -> Int {
        remaining.withLock { left in
            let granted = min(wanted, left)
            left -= granted
            return granted
        }
    }

    func giveBack(_ steps: Int) { remaining.withLock { $0 += steps } }

    var left: Int { remaining.withLock { $0 } }
}
