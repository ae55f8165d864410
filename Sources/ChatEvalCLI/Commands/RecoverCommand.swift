import ArgumentParser
import ChatEvalReport
import ChatEvalRunner
import ChatEvalStore
import Foundation

struct RecoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Turn a journal left by a run that died into a graded result file, marked incomplete.",
        discussion: """
            A run that was killed (SIGKILL, a crash, a full disk, a third Ctrl-C) leaves <name>.journal beside its \
            result file: every finished turn, and the run's settings and suites. This grades its turns as the run would \
            have and writes <name>.json. `chateval run` does it by itself for journals left in its reports folder. \
            A journal a running chateval holds is left alone.

            Examples:
              chateval recover reports/20261125T101500Z-7bfb935-n6y819bh.journal
              chateval recover reports/*.journal

            Exit codes: 0 every journal recovered, 2 one could not be (each is named with why).
            """)

    @Argument(help: ArgumentHelp("Journal files.", valueName: "journal")) var journals: [String]

    func run() throws {
        var failed = 0
        for path in journals {
            do {
                let result = try Recovery.recover(URL(fileURLWithPath: path))
                say("\(path): recovered into \(result.path)")
            } catch {
                complain("chateval: error: \(path): \(error.description)")
                failed += 1
            }
        }
        if failed > 0 { throw failure("\(failed) of \(journals.count) journal(s) could not be recovered", .badInput) }
    }
}

/// Recovering journals: one place for `recover` and for `run`'s automatic recovery.
enum Recovery {
    struct Problem: Error, CustomStringConvertible { var description: String }

    /// Writes the journal's run as `<name>.json` (atomically), removes the journal, and returns
    /// the result file's URL.
    static func recover(_ journalURL: URL) throws(Problem) -> URL {
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
}
