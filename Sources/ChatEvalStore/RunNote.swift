import ChatEvalCore
import Foundation

/// Runs recorded in git notes (`refs/notes/chateval`): one line per run, each line the whole
/// result file as compact JSON.
///
/// The whole result, not a summary, so that `compare` and `history` work from notes alone once
/// `git fetch origin 'refs/notes/*:refs/notes/*'` has brought CI's baselines. Plain compact JSON
/// rather than compressed text: git stores every blob zlib-compressed already, and lines stay
/// readable (`git notes --ref=chateval show`) and mergeable (`git notes merge -s cat_sort_uniq`).
public enum RunNote {
    /// The note line for `record` (no newline inside: JSON escapes them).
    public static func line(for record: RunRecord) throws -> String {
        Secrets.redact(String(decoding: try ResultWriter.makeEncoder(pretty: false).encode(record), as: UTF8.self))
    }

    /// The runs in a note, in the order they were added, and the lines that are not runs
    /// (written by something else, a format this version does not read, or records that cannot
    /// exist: see `RunRecord.validationProblems`), each as "line N: why" (1-based).
    public static func records(in note: String) -> (records: [RunRecord], unreadable: [String]) {
        let decoder = ResultWriter.makeDecoder()
        var records: [RunRecord] = []
        var unreadable: [String] = []
        for (index, line) in note.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { continue }
            do {
                var record = try decoder.decode(RunRecord.self, from: Data(trimmed.utf8))
                record.clampContradictions()
                if let problem = record.validationProblems.first {
                    unreadable.append("line \(index + 1): not a run this ChatEval can trust: \(problem)")
                } else {
                    records.append(record)
                }
            } catch {
                unreadable.append("line \(index + 1): not a ChatEval run of this version (\(ResultFolder.describe(error)))")
            }
        }
        return (records, unreadable)
    }
}
