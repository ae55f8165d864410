import ChatEvalCore

/// The first line of a journal: what `recover` needs to grade the turns that follow as the run
/// would have.
public struct JournalHeader: Codable, Sendable {
    public static let currentVersion = 1
    public var journal: Int
    /// The run's record at its start, without suites.
    public var record: RunRecord
    /// Every suite the run replays, as the text it was parsed from.
    public var suites: [SuiteSource]

    public init(record: RunRecord, suites: [SuiteSource]) {
        journal = Self.currentVersion
        self.record = record
        self.suites = suites
    }
}
