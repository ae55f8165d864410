import ChatEvalCore
import Foundation

/// Everything one `chateval run` measured, as written to its result file.
///
/// Versioned (`schemaVersion`) and documented by `reports/schema/run.schema.json`; keys are
/// snake_case on disk. A record is written while the run goes (status `running`), and once more at
/// the end (`complete`, or `incomplete` when the run was interrupted).
public struct RunRecord: Codable, Sendable {
    public static let currentSchemaVersion = 1

    public enum Status: String, Codable, Sendable {
        case running, complete, incomplete
    }

    public var schemaVersion: Int
    public var runId: String
    public var status: Status
    public var startedAt: Date
    public var endedAt: Date?
    /// The command line, as typed.
    public var command: [String]
    /// The commit the run measured; nil outside a git repository.
    public var git: GitSnapshot?
    public var machine: MachineInfo
    /// How busy the machine was when the run started and ended (absent in older records).
    public var environment: RunEnvironment?
    public var runtime: RuntimeIdentity
    /// sha256 of the model file.
    public var modelSha256: String?
    public var settings: RunSettings
    /// The project file used, if any.
    public var project: ProjectFileRecord?
    /// Set for the two runs of `run --baseline`; nil for an ordinary run.
    public var role: RunRole?
    /// The other run of a `run --baseline` pair.
    public var pairedRunId: String?
    /// For the runs of `run --baseline`: the look of its design that decided, so that comparing the
    /// pair again (`chateval compare`) decides at the same share of the error rates.
    public var decidedLook: DecidedLook?
    /// Set when one command ran the suites against several models (or templates, or context
    /// sizes) side by side: each writes its own record, one model per record, tied by the group.
    public var group: RunGroup?
    public var suites: [SuiteRecord]
    /// True when every gate of every suite passed; nil until the run ends.
    public var gatesPassed: Bool?
    /// The part of the run this record holds, for `run --shard I/N`; nil for a whole run.
    public var shard: RunShard?
    /// Throughput, latency under load and goodput, for `run --concurrency N`; nil otherwise.
    public var load: LoadSummary?

    public init(
        runId: String, startedAt: Date, command: [String], git: GitSnapshot?, machine: MachineInfo,
        runtime: RuntimeIdentity, modelSha256: String?, settings: RunSettings, suites: [SuiteRecord] = []
    ) {
        self.schemaVersion = Self.currentSchemaVersion
        self.runId = runId
        self.status = .running
        self.startedAt = startedAt
        self.command = command
        self.git = git
        self.machine = machine
        self.runtime = runtime
        self.modelSha256 = modelSha256
        self.settings = settings
        self.suites = suites
    }
}

/// How the run was asked to run.
public struct RunSettings: Codable, Sendable, Hashable {
    public var cacheMode: CacheMode
    /// Measured repetitions of every conversation.
    public var repetitions: Int
    /// Conversations replayed before measuring and not counted.
    public var warmupConversations: Int
    /// The conversations picked (`--filter`, `--tag`, `suite.yaml#id`); nil when all ran.
    public var selection: SuiteSelectionRecord?
    /// Where each setting's value came from, keyed by its name in the project file (`model`,
    /// `chat_template`, `context_size`, `threads`, `batch_size`, `sliding_window_cache`, `cache_mode`, `repetitions`,
    /// `warmup`, `suites`, `compare`). A comparison trusts a difference both sides took from
    /// their commit's project file as the commit's own change. Absent in older records.
    public var sources: [String: SettingSource]?

    public init(
        cacheMode: CacheMode, repetitions: Int, warmupConversations: Int, sources: [String: SettingSource]? = nil,
        selection: SuiteSelectionRecord? = nil
    ) {
        self.selection = selection
        self.cacheMode = cacheMode
        self.repetitions = repetitions
        self.warmupConversations = warmupConversations
        self.sources = sources
    }
}

/// The side-by-side run a record belongs to.
public struct RunGroup: Codable, Sendable, Hashable {
    /// Shared by every record of the group.
    public var id: String
    /// This record's place (1-based) among `count`.
    public var index: Int
    public var count: Int
    /// What sets this record apart in the group's report (the model's file name, with the chat
    /// template or context size where those differ).
    public var label: String

    public init(id: String, index: Int, count: Int, label: String) {
        self.id = id
        self.index = index
        self.count = count
        self.label = label
    }
}

/// The selection a run was limited to, as given.
public struct SuiteSelectionRecord: Codable, Sendable, Hashable {
    public var patterns: [String]
    public var tags: [String]
    /// Suite path → conversation ids (`suite.yaml#id`).
    public var conversations: [String: [String]]

    public init(patterns: [String], tags: [String], conversations: [String: [String]]) {
        self.patterns = patterns
        self.tags = tags
        self.conversations = conversations
    }
}

/// Where a setting's value came from, in order of precedence.
public enum SettingSource: String, Codable, Sendable, Hashable {
    /// An option on the command line.
    case commandLine = "command_line"
    /// An environment variable (`CHATEVAL_MODEL`).
    case environment
    /// The project file committed with the suites (`chateval.yaml`).
    case projectFile = "project_file"
    /// ChatEval's built-in default.
    case builtIn = "default"
}

extension SettingSource {
    /// The value a setting takes from the first place that sets it — the command line, then the
    /// environment, then the project file — with that place; nil when none does.
    public static func first<T>(commandLine: T?, environment: T?, projectFile: T?) -> (value: T, source: SettingSource)? {
        if let commandLine { return (commandLine, .commandLine) }
        if let environment { return (environment, .environment) }
        if let projectFile { return (projectFile, .projectFile) }
        return nil
    }
}

/// The project file a run used: which file, and a digest of its content.
public struct ProjectFileRecord: Codable, Sendable, Hashable {
    /// As given (relative to the repository for a file read from a commit: `abc1234:chateval.yaml`).
    public var path: String
    public var sha256: String

    public init(path: String, sha256: String) {
        self.path = path
        self.sha256 = sha256
    }
}

/// Shard `index` of `count` (1-based): a deterministic, conversation-atomic part of a run, made
/// to be joined with the other parts by `chateval merge`.
public struct RunShard: Codable, Sendable, Hashable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// The most shards a run is split into.
    public static let maximumCount = 1000

    /// `I/N` with 1 ≤ I ≤ N ≤ `maximumCount`; nil otherwise.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0].trimmingCharacters(in: .whitespaces)),
            let count = Int(parts[1].trimmingCharacters(in: .whitespaces)), (1...Self.maximumCount).contains(count),
            (1...count).contains(index)
        else { return nil }
        self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }
}

/// The look a paired run's comparison was decided at: repetitions per side at each planned look,
/// the 1-based look, and the shares of the false-alarm rate and of the intervals' non-coverage it spent.
public struct DecidedLook: Codable, Sendable, Hashable {
    public var looks: [Int]
    public var look: Int
    public var share: Double
    public var intervalShare: Double

    public init(looks: [Int], look: Int, share: Double, intervalShare: Double) {
        self.looks = looks
        self.look = look
        self.share = share
        self.intervalShare = intervalShare
    }
}

/// Why a run was made, when it is not an ordinary run.
public enum RunRole: String, Codable, Sendable, Hashable {
    /// The base side of `chateval run --baseline REV`: REV's suites and project file, replayed by
    /// the head's build in the same job, interleaved with the head run (`pairedRunId`).
    case baseline
    /// The head side of `chateval run --baseline REV`.
    case head
}

public struct SuiteRecord: Codable, Sendable {
    public var name: String
    public var path: String
    /// The suite's one-line description.
    public var description: String?
    public var conversations: [ConversationRecord]
    /// Outcomes of the suite's gates, evaluated at the end of the run over measured replays.
    public var gates: [GateOutcome]
    /// The suite's own comparison thresholds (its `compare:` section), applied when this run
    /// is the head of a comparison.
    public var comparison: ComparisonOverrides?
    /// The suite file's text, kept in a shard's record so that `chateval merge` can grade the
    /// whole run's gates without the files; nil otherwise.
    public var text: String?

    public init(
        name: String, path: String, description: String? = nil, conversations: [ConversationRecord] = [],
        gates: [GateOutcome] = [], comparison: ComparisonOverrides? = nil, text: String? = nil
    ) {
        self.name = name
        self.description = description
        self.path = path
        self.conversations = conversations
        self.gates = gates
        self.comparison = comparison
        self.text = text
    }

    /// Verdicts of every check of the measured replays (turn and conversation checks).
    public var measuredVerdicts: [Verdict] {
        conversations.filter(\.isMeasured).flatMap(\.verdicts)
    }

    /// Metrics of every answered turn of the measured (not warm-up, not left out) conversations.
    public var measuredTurns: [TurnMetrics] {
        conversations.filter(\.isMeasured).flatMap { $0.turns.compactMap(\.metrics) }
    }
}

/// One replay of one conversation.
public struct ConversationRecord: Codable, Sendable {
    public var id: String
    /// 1-based repetition; 0 for a warm-up replay.
    public var repetition: Int
    public var warmup: Bool
    public var systemPrompt: String?
    public var options: GenerationOptions
    /// The conversation's description and tags in its suite.
    public var description: String?
    public var tags: [String]?
    public var turns: [TurnRecord]
    /// Verdicts of the conversation-level checks.
    public var checks: [Verdict]
    /// How busy the machine was while this replay ran (absent in older records).
    public var load: ReplayLoad?
    /// Why this replay is left out of gates and comparisons, when it is: a paired run re-measures
    /// a replay that other processes disturbed and keeps the disturbed one here, marked.
    public var leftOut: String?
    /// The suite variant this replay ran under (`variants:`), whose id its own `id` ends with
    /// after an "@"; absent for a suite without variants.
    public var variant: String?

    /// The conversation's id without its variant: the row of a variant matrix.
    public var baseID: String {
        guard let variant, id.hasSuffix("@" + variant) else { return id }
        return String(id.dropLast(variant.count + 1))
    }

    /// Every verdict of this replay: its turns' checks, then the conversation's.
    public var verdicts: [Verdict] { turns.flatMap { $0.checks ?? [] } + checks }

    /// A measured replay that counts: not a warm-up, not left out.
    public var isMeasured: Bool { !warmup && leftOut == nil }

    public init(
        id: String, repetition: Int, warmup: Bool, systemPrompt: String?, options: GenerationOptions,
        description: String? = nil, tags: [String]? = nil, turns: [TurnRecord] = [], checks: [Verdict] = []
    ) {
        self.description = description
        self.tags = tags
        self.id = id
        self.repetition = repetition
        self.warmup = warmup
        self.systemPrompt = systemPrompt
        self.options = options
        self.turns = turns
        self.checks = checks
    }
}
