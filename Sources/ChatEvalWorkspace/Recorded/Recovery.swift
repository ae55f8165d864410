import ChatEvalReport
import ChatEvalRunner
import ChatEvalStore
import Foundation

/// Recovering journals: one place for `recover` and for `run`'s automatic recovery.
package enum Recovery {
    package struct Problem: Error, CustomStringConvertible { package var description: String }

    /// Writes the journal's run as `<name>.json` (atomically), removes the journal, and returns
    /// the result file's URL.
    package static func recover(_ journalURL: URL) throws(Problem) -> URL {
        guard FileManager.default.fileExists(atPath: journalURL.path) else { throw Problem(description: "no such file") }
        guard Journal.isAbandoned(journalURL) else { throw Problem(description: "a running chateval is still writing it") }
        let journal: Journal
        let record: RunRecord
        do {
            journal = try Journal.read(journalURL)
            record = try JournalRecovery.record(from: journal)
        } catch let error as ResultReadError {
            throw Problem(description: error.message)
        } catch {
            throw Problem(description: String(describing: error))
        }
        // What `report` and `compare` will refuse is not written: checked as a result file is read.
        if let problem = record.validationProblems.first {
            throw Problem(description: "the run it holds is not one this ChatEval can trust: \(problem)")
        }
        let resultURL = journalURL.deletingPathExtension().appendingPathExtension("json")
        do {
            try AtomicFile.write(try ResultWriter.makeEncoder(pretty: true).encode(record), to: resultURL)
        } catch {
            throw Problem(description: "cannot write \(error)")
        }
        try? FileManager.default.removeItem(at: journalURL)
        if !journal.unreadableLines.isEmpty {
            complain("chateval: warning: \(journalURL.path): \(journal.unreadableLines.count) line(s) cut by the crash were left out")
        }
        for refused in journal.refusedLines.prefix(3) {
            complain("chateval: warning: \(journalURL.path): \(refused); the turn was left out")
        }
        if journal.refusedLines.count > 3 {
            complain("chateval: warning: \(journalURL.path): \(journal.refusedLines.count - 3) more line(s) like these were left out")
        }
        return resultURL
    }

    /// Recovers every journal in `folder` that no live run holds, saying so.
    static func recoverAbandonedJournals(in folder: String) {
        for journal in Journal.abandoned(in: URL(fileURLWithPath: folder)) {
            do {
                let result = try recover(journal)
                complain(
                    "chateval: recovered \(journal.lastPathComponent), left by a run that died, "
                        + "into \(result.lastPathComponent) (marked incomplete)"
                )
            } catch {
                complain("chateval: warning: \(journal.path) was left by a run that died and cannot be recovered: \(error.description)")
            }
        }
    }

    /// Recovers each journal in turn, saying where each went or why it could not be; bad input
    /// (exit 2) when one could not be, after trying the rest.
    package static func recoverAll(_ paths: [String]) throws {
        var failed = 0
        for path in paths {
            do {
                let result = try recover(URL(fileURLWithPath: path))
                say("\(path): recovered into \(result.path)")
            } catch {
                complain("chateval: error: \(path): \(error.description)")
                failed += 1
            }
        }
        if failed > 0 { throw failure("\(failed) of \(paths.count) journal(s) could not be recovered", .badInput) }
    }
}
