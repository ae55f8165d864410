import ChatEvalCore

/// A turn whose ledger is not comparable on a side.
public struct VaryingTurn: Codable, Sendable, Hashable {
    public var turn: LedgerTurn
    public var base: LedgerDeterminism
    public var head: LedgerDeterminism
}
