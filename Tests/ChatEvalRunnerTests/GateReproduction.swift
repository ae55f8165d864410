import ChatEvalCompare
import ChatEvalRunner
import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

/// Issue 48, item 2, checked by every test here that runs a paired gate: its two result files,
/// read back and compared the way `chateval compare` compares one paired job's files, give the
/// gate's verdicts exactly (`GateRecheck`): every metric's verdict, change, interval and
/// p-values, every check and turn, the exact ledger, the family and the look.
func expectTheFilesReproduceTheGate(
    _ comparison: Comparison?, writers: [ResultWriter], sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let differences = try GateRecheck.differences(
        gate: comparison, baseFile: writers[0].resultURL, headFile: writers[1].resultURL)
    #expect(
        differences.isEmpty, "compare of the gate's files disagrees with the gate:\n\(differences.prefix(20).joined(separator: "\n"))",
        sourceLocation: sourceLocation)
}
