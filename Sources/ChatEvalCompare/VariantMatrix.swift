import ChatEvalCore
import ChatEvalStore

/// promptfoo's prompt × provider matrix, with statistics: the columns are each model run side by
/// side × each suite variant (`variants:`); every row is one turn of one conversation; and each
/// column after the first is compared with the first by the same tests as `compare` — pass counts
/// per check (Fisher's exact test) and time to first token per turn (the stratified rank test).
/// The family error rate α is split evenly over the comparisons, and each comparison's share
/// evenly again between its two families of marks (Bonferroni both times): the check marks come
/// from the comparison's gated family (checks with its suite metrics, Holm's adjustment), the TTFT
/// marks from its per-turn family (Holm's adjustment of its own), and each family holds only its own
/// level — at α each, identical variants were marked in up to 2α of matrices. Halving keeps
/// `compare`'s two families as they are and holds whatever their dependence, so the chance that
/// any cell of the matrix is marked between identical columns is at most α. A cell is marked
/// better or worse only where that test says so; a difference the eye sees and the test does not
/// is left unmarked.
public struct VariantMatrix: Sendable {
    public struct Column: Sendable, Hashable {
        /// "model · variant", or whichever of the two varies.
        public var label: String
        public var variant: String?
        /// Index of the record (model) in the run.
        public var record: Int
    }

    public struct Cell: Sendable {
        public var checksPassed: Int
        public var checksTotal: Int
        /// Median time to first token over the replays, seconds.
        public var timeToFirstToken: Double?
        /// How the cell's checks differ from the first column's, where the test decided it: passing
        /// significantly less often (regression) or more often (improvement), or different with too
        /// few replays to tell from chance (undecided); nil where the test finds no difference.
        public var checks: ChangeVerdict?
        /// How its time to first token differs from the first column's: regression or improvement
        /// where the test decided it, else nil.
        public var timeToFirstTokenVerdict: ChangeVerdict?
        /// True when `checks` was decided exactly, as `compare`'s exact ledger decides it: the
        /// turn is greedy and `exact` on both sides (two or more replays a side, every one
        /// identical: established, not assumed from one), and a check of the answer alone passes
        /// on every replay of one side and fails on every replay of the other — a fact, not a
        /// sample (`LedgerComparator`; a sampled turn, a turn replayed once, a timing check never is).
        public var checksDecidedExactly = false
    }

    public struct Row: Sendable {
        public var suite: String
        public var conversation: String
        /// 1-based.
        public var turn: Int
        public var cells: [Cell?]
    }

    public var columns: [Column]
    public var rows: [Row]
    /// Column i + 1 against column 0.
    public var comparisons: [Comparison]
    /// The error rate each comparison (column) was held to: the family's, split over the
    /// comparisons; half of it for the column's check marks and half for its TTFT marks.
    public var errorRatePerComparison: Double

    /// The matrix of a run's records (one per model), or nil when there is nothing to set side by
    /// side: one model and no variants. Where some suites have variants, the others are left out:
    /// they have nothing to set beside each other, and as a column of their own they would share
    /// no suite with the variants' columns.
    public static func build(_ records: [RunRecord], labels: [String], settings: ComparisonSettings = .default) -> VariantMatrix? {
        func hasVariants(_ suite: SuiteRecord) -> Bool { suite.conversations.contains { $0.variant != nil } }
        var records = records
        if records.contains(where: { $0.suites.contains(where: hasVariants) }) {
            for index in records.indices { records[index].suites.removeAll { !hasVariants($0) } }
        }
        var columns: [Column] = []
        for (index, record) in records.enumerated() {
            var variants: [String?] = []
            for replay in record.suites.flatMap(\.conversations) where !variants.contains(replay.variant) {
                variants.append(replay.variant)
            }
            for variant in variants {
                let parts = [records.count > 1 ? labels[index] : nil, variant].compactMap { $0 }
                columns.append(
                    Column(label: parts.isEmpty ? labels[index] : parts.joined(separator: " · "), variant: variant, record: index))
            }
        }
        guard columns.count > 1 else { return nil }
        let sides = columns.map { column(records[$0.record], variant: $0.variant) }
        let perComparison = settings.familyErrorRate / Double(columns.count - 1)
        var adjusted = settings
        // A column's share split over its marks: checks are tested one-sided in each direction
        // (worse, better) at the family's rate each, per-turn TTFT two-sided at it — a quarter
        // each keeps all marks of the column within its share (3/4 of it).
        adjusted.familyErrorRate = perComparison / 4
        let comparisons = sides.dropFirst().enumerated().map { index, side in
            RunComparator.compare(
                base: ComparedRuns(runs: [sides[0]], sources: [columns[0].label]),
                head: ComparedRuns(runs: [side], sources: [columns[index + 1].label]), settings: adjusted)
        }
        // The exact ledger of each column against the first, as `compare` prints it first: where it
        // decides a check, the cell agrees with it (five identical greedy replays a side are a fact).
        let ledgers = sides.dropFirst().map { LedgerComparator.compare(base: [sides[0]], head: [$0]) }

        var rows: [Row] = []
        var seen = Set<String>()
        for side in sides {
            for suite in side.suites {
                for replay in suite.conversations where replay.isMeasured {
                    for turn in replay.turns {
                        let key = "\(suite.name)\u{1}\(replay.id)\u{1}\(turn.index)"
                        if seen.insert(key).inserted {
                            rows.append(Row(suite: suite.name, conversation: replay.id, turn: turn.index + 1, cells: []))
                        }
                    }
                }
            }
        }
        // Each side's turns and each comparison's marks by place, found once: searched for every
        // row, they made the matrix quadratic in its rows.
        let turnsBySide = sides.map(Self.turnsByPlace)
        let marks = zip(comparisons, ledgers).map { Marks($0, $1) }
        for index in rows.indices {
            let row = rows[index]
            let place = Place(suite: row.suite, conversation: row.conversation, turn: row.turn)
            rows[index].cells = turnsBySide.enumerated().map { column, turns in
                guard var cell = Self.cell(turns[place] ?? []) else { return nil }
                guard column > 0 else { return cell }
                marks[column - 1].mark(&cell, at: place)
                return cell
            }
        }
        return VariantMatrix(
            columns: columns, rows: rows, comparisons: comparisons, errorRatePerComparison: perComparison)
    }

    /// A row's place: suite, conversation and 1-based turn.
    private struct Place: Hashable {
        var suite: String
        var conversation: String
        var turn: Int?
    }

    /// What one column's comparison with the first says of each place.
    private struct Marks {
        var regressions: Set<Place> = []
        var improvements: Set<Place> = []
        var undecided: Set<Place> = []
        /// Whether the exact ledger decided a check of the place with the head failing it (true)
        /// or only passing ones (false); absent where it decided none.
        var exactHeadFails: [Place: Bool] = [:]
        var timeToFirstToken: [Place: ChangeVerdict] = [:]

        init(_ comparison: Comparison, _ ledger: LedgerComparison) {
            let place = { (change: CheckChange) in Place(suite: change.suite, conversation: change.conversation, turn: change.turn) }
            regressions = Set(comparison.quality.regressions.map(place))
            improvements = Set(comparison.quality.improvements.map(place))
            undecided = Set(comparison.quality.undecided.map(place))
            if ledger.notGated == nil {
                for check in ledger.checks where check.baseReplays >= 2 && check.headReplays >= 2 {
                    let key = Place(suite: check.turn.suite, conversation: check.turn.conversation, turn: check.turn.turn)
                    exactHeadFails[key] = (exactHeadFails[key] ?? false) || !check.headPasses
                }
            }
            // The first suite of a name and the first row of a turn, as searching found them.
            var seenSuites = Set<String>()
            var seenTurns = Set<Place>()
            for suite in comparison.suites where seenSuites.insert(suite.name).inserted {
                for turn in suite.turns {
                    let key = Place(suite: suite.name, conversation: turn.conversation, turn: turn.turn)
                    guard seenTurns.insert(key).inserted else { continue }
                    if let verdict = turn.metrics.first(where: { $0.metric == .timeToFirstToken })?.verdict {
                        timeToFirstToken[key] = verdict
                    }
                }
            }
        }

        /// Marks `cell` at `place`: its checks by the counting test, or — where it decided them —
        /// by the exact ledger, which `compare` prints first; its TTFT only where the rank test decided.
        func mark(_ cell: inout Cell, at place: Place) {
            if regressions.contains(place) {
                cell.checks = .regression
            } else if exactHeadFails[place] == true {
                (cell.checks, cell.checksDecidedExactly) = (.regression, true)
            } else if improvements.contains(place) {
                cell.checks = .improvement
            } else if exactHeadFails[place] == false {
                (cell.checks, cell.checksDecidedExactly) = (.improvement, true)
            } else if undecided.contains(place) {
                cell.checks = .undecided
            }
            // Only what the test decided marks a cell: underpowered, not worse and the rest leave it unmarked.
            if let verdict = timeToFirstToken[place], verdict == .regression || verdict == .improvement {
                cell.timeToFirstTokenVerdict = verdict
            }
        }
    }

    /// `record` with only `variant`'s replays, under the ids the suite gave them (without "@variant").
    static func column(_ record: RunRecord, variant: String?) -> RunRecord {
        var column = record
        for index in column.suites.indices {
            column.suites[index].conversations = record.suites[index].conversations.filter { $0.variant == variant }.map {
                var replay = $0
                replay.id = replay.baseID
                replay.variant = nil
                return replay
            }
        }
        column.suites.removeAll { $0.conversations.isEmpty }
        return column
    }

    /// Each place's turns in `side`, in replay order: of the first suite of each name, its measured
    /// replays' first turn of each index.
    private static func turnsByPlace(_ side: RunRecord) -> [Place: [TurnRecord]] {
        var found: [Place: [TurnRecord]] = [:]
        var seenSuites = Set<String>()
        for suite in side.suites where seenSuites.insert(suite.name).inserted {
            for replay in suite.conversations where replay.isMeasured {
                var seenTurns = Set<Int>()
                for turn in replay.turns where seenTurns.insert(turn.index).inserted {
                    found[Place(suite: suite.name, conversation: replay.id, turn: turn.index + 1), default: []].append(turn)
                }
            }
        }
        return found
    }

    private static func cell(_ turns: [TurnRecord]) -> Cell? {
        guard !turns.isEmpty else { return nil }
        let verdicts = turns.flatMap { $0.checks ?? [] }
        return Cell(
            checksPassed: verdicts.filter(\.passed).count, checksTotal: verdicts.count,
            timeToFirstToken: Distribution(turns.compactMap { $0.metrics?.timeToFirstToken })?.median)
    }
}
