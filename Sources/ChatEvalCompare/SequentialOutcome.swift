import ChatEvalCore

/// Why a paired run stopped adding repetitions, and how many it took.
public struct SequentialOutcome: Codable, Sendable, Hashable {
    public enum Stop: String, Codable, Sendable, Hashable {
        /// Every gated metric, check and turn was decided.
        case decided
        /// A regression was confirmed: more repetitions could not undo it.
        case regression
        /// The most repetitions the design allows were run.
        case maximumRepetitions = "maximum_repetitions"
        /// The time budget would have been exceeded by another round.
        case timeBudget = "time_budget"
        /// The run was interrupted.
        case interrupted
    }

    public var stop: Stop
    /// Repetitions per side measured (and kept) when the run stopped.
    public var repetitions: Int
    /// Rounds run, and the seconds they took.
    public var rounds: Int
    public var seconds: Double
    /// One line per look: repetitions, what was undecided.
    public var looks: [String]

    public init(stop: Stop, repetitions: Int, rounds: Int, seconds: Double, looks: [String]) {
        self.stop = stop
        self.repetitions = repetitions
        self.rounds = rounds
        self.seconds = seconds
        self.looks = looks
    }
}
