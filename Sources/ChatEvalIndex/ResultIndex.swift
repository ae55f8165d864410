import ChatEvalCore
import ChatEvalStore
import Foundation

/// An index of recorded runs, for questions over many commits (`chateval history`).
///
/// Contract: result files and git notes stay the source of truth. The index only caches what
/// they hold, so it can be deleted and rebuilt at any time and must never hold a run they no
/// longer hold: `update` reads what is new or changed since the last update and forgets what
/// was removed. Runs come back whatever their status; callers decide what to use.
public protocol ResultIndex: AnyObject {
    /// Brings the index up to date with the result files (`*.json`) directly in `folder`: new
    /// or changed files (by size and modification time) are read, removed ones forgotten. A file
    /// that is not a result is reported in the summary, not thrown.
    func update(folder: URL) throws(IndexError) -> IndexUpdate

    /// Brings the index up to date with the git notes under one ref: `tip` is the notes ref's
    /// commit (nil when there is none), `notes` maps each annotated commit to its note's blob id.
    /// Notes whose blob changed are read (`read` gives a blob's text), removed notes forgotten;
    /// nothing is read when the notes ref has not moved since the last update.
    func update(notesTip tip: String?, notes: [String: String], read: (String) throws -> String) throws(IndexError) -> IndexUpdate

    /// Runs recorded against any of `commits`, each with only the samples of `metrics`. A run
    /// found both in a file and in a note comes back once, from the file.
    func runs(commits: [String], metrics: Set<Metric>) throws(IndexError) -> [RunDigest]
}
