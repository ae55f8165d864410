import ChatEvalCore

/// What an exact comparison could speak to: the turns it compared exactly per suite, the turns it
/// could not (a sampled or varying ledger on a side), and why its facts are not gated (the sides
/// computed with different arithmetic). A probe reads an exact signal it saw no change of as
/// `same` only within this scope; outside it, `undecided` — never "no difference" by default.
public struct ExactScope: Codable, Sendable, Hashable {
    public var exactTurnsBySuite: [String: Int]
    public var uncompared: [LedgerTurn]
    public var notGated: String?

    public init(exactTurnsBySuite: [String: Int], uncompared: [LedgerTurn], notGated: String?) {
        self.exactTurnsBySuite = exactTurnsBySuite
        self.uncompared = uncompared
        self.notGated = notGated
    }

    public init(_ ledger: LedgerComparison) {
        self.init(exactTurnsBySuite: ledger.exactTurnsBySuite ?? [:], uncompared: ledger.varying.map(\.turn), notGated: ledger.notGated)
    }

    /// The reading of exact `signal`: its change among `changed` (the comparison's changed
    /// readings), else `same` where every turn it covers was compared exactly, else undecided
    /// with the reason.
    public func reading(of signal: BisectSignal, changed: [SignalReading]) -> SignalReading {
        let undecided = { (why: String) in SignalReading(signal: signal, side: .undecided, detail: why) }
        if let notGated { return undecided("not gated: \(notGated)") }
        if let found = changed.first(where: { $0.signal == signal }) { return found }
        switch signal {
        case .ledger(let suite):
            let exact = exactTurnsBySuite[suite] ?? 0
            let open = uncompared.filter { $0.suite == suite }
            if exact == 0 { return undecided("no turn of \(suite) was compared exactly (sampled or varying on a side)") }
            if !open.isEmpty {
                return undecided(
                    "\(open.count) turn(s) of \(suite) not compared exactly (sampled or varying on a side), first \(open[0])")
            }
            return SignalReading(signal: signal, side: .same, detail: "identical in \(exact) exact turn(s)")
        case .exactCheck(let place):
            guard let number = place.turn else { return undecided("a conversation-level check is never compared exactly") }
            let turn = LedgerTurn(suite: place.suite, conversation: place.conversation, turn: number)
            if (exactTurnsBySuite[place.suite] ?? 0) == 0 || uncompared.contains(turn) {
                return undecided("\(turn) was not compared exactly (sampled or varying on a side)")
            }
            return SignalReading(signal: signal, side: .same, detail: "the same verdict on exact answers")
        case .passRate, .metric:
            return undecided("not an exact signal")
        }
    }
}
