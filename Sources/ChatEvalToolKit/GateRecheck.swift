import ChatEvalCompare
import ChatEvalCore
import ChatEvalStore
import Foundation

/// The check every test of a paired gate makes (issue 48, item 2): a comparison is a function of
/// its input files and settings, so the two result files a gate wrote, read back and compared
/// the way `chateval compare` compares one paired job's files
/// (`RunComparator.comparePairedAgain`), give the gate's verdicts exactly — every metric's
/// verdict, change, interval and p-values, every check and turn, the exact ledger, the
/// expectations, the family and the look.
public enum GateRecheck {
    /// The gate's result files compared again; nil when they are not one paired job's records
    /// with what it decided with (`DecidedLook.settings`).
    public static func recompare(baseFile: URL, headFile: URL) throws -> Comparison? {
        let base = try ResultFolder.read(baseFile), head = try ResultFolder.read(headFile)
        return RunComparator.comparePairedAgain(base: base, head: head)
    }

    /// Where the gate's comparison and the files' disagree (empty when they agree), or why the
    /// files could not be compared again. A gate that reached no comparison (interrupted, or a
    /// side not finished) has nothing to reproduce.
    public static func differences(gate: Comparison?, baseFile: URL, headFile: URL) throws -> [String] {
        guard let gate else { return [] }
        guard let again = try recompare(baseFile: baseFile, headFile: headFile) else {
            return ["\(baseFile.lastPathComponent) and \(headFile.lastPathComponent) do not compare again as one paired job"]
        }
        return try differences(gate, again)
    }

    /// As above, from the gate's comparison as JSON (`run --baseline --output gate.json`) and
    /// `chateval compare BASE HEAD --format json`'s.
    public static func differences(gateJSON: Data, compareJSON: Data) throws -> [String] {
        let decoder = ResultWriter.makeDecoder()
        return try differences(decoder.decode(Comparison.self, from: gateJSON), decoder.decode(Comparison.self, from: compareJSON))
    }

    /// Every key path whose value differs between `gate` and `again`, with both values; what only
    /// the reading differs in is left aside: where the sides were read from, how the gate's
    /// rounds went (`sequential`), the runner's calibration and what else ends the job
    /// (`headGatesFailed`, `undecidedFails`), which describe the run, not the files.
    public static func differences(_ gate: Comparison, _ again: Comparison) throws -> [String] {
        func document(_ comparison: Comparison) throws -> Any {
            var comparison = comparison
            comparison.sequential = nil
            comparison.calibration = nil
            // What else ends the gate's job (its head's suite gates, --undecided fail): the job's, not the files'.
            comparison.headGatesFailed = nil
            comparison.undecidedFails = nil
            comparison.base.sources = []
            comparison.head.sources = []
            return try JSONSerialization.jsonObject(with: ResultWriter.makeEncoder(pretty: false).encode(comparison))
        }
        var found: [String] = []
        collect(try document(gate), try document(again), path: "$", into: &found)
        return found
    }

    private static func collect(_ a: Any, _ b: Any, path: String, into found: inout [String]) {
        if let a = a as? [String: Any], let b = b as? [String: Any] {
            for key in Set(a.keys).union(b.keys).sorted() {
                collect(a[key] ?? NSNull(), b[key] ?? NSNull(), path: "\(path).\(key)", into: &found)
            }
        } else if let a = a as? [Any], let b = b as? [Any], a.count == b.count {
            for (index, pair) in zip(a, b).enumerated() { collect(pair.0, pair.1, path: "\(path)[\(index)]", into: &found) }
        } else if String(describing: a) != String(describing: b) {
            // Leaves of one parser: numbers, strings, booleans and nulls print alike when equal.
            found.append("\(path): gate \(String(describing: a).prefix(200)), compare \(String(describing: b).prefix(200))")
        }
    }
}
