import ChatEvalCore
internal import Yams

/// Reads a project file's `ledger:` section: for each exact ledger entry, `gate` (a change in the
/// wrong direction fails the comparison) or `report` (named, never failed). See `LedgerGates`.
struct LedgerSection {
    let reader: YAMLReader

    func gates(_ node: Node) -> LedgerGates? {
        guard let entries = reader.mapping(node, "ledger", allowed: LedgerGates.keys) else { return nil }
        var gates = LedgerGates.default
        for key in LedgerGates.keys {
            guard let value = entries[key], let word = reader.string(value, "ledger.\(key)") else { continue }
            guard let rule = LedgerGates.Rule(rawValue: word) else {
                reader.fail(
                    .invalidValue, at: value, "ledger.\(key) must be gate or report (got '\(word)')",
                    hint: "gate fails the comparison on a change in the wrong direction; report names it only")
                continue
            }
            gates[key] = rule
        }
        return gates
    }
}
