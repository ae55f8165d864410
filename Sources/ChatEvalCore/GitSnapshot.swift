import Foundation

/// The state of a repository's HEAD and working tree at one moment, recorded with each run.
///
/// Commit fields (`commit`, `shortCommit`, `commitTime`, `commitTimeZoneOffsetMinutes`,
/// `subject`, `describe`) are nil when the repository has no commits yet (`isUnborn`).
public struct GitSnapshot: Codable, Sendable, Equatable {
    /// HEAD's commit id, 40 lowercase hex digits.
    public var commit: String?
    /// The shortest unique abbreviation of `commit`, at least 7 digits (`core.abbrev`).
    public var shortCommit: String?
    /// The branch HEAD points to, without `refs/heads/` (even when it has no commits yet);
    /// nil when HEAD is detached.
    public var branch: String?
    /// HEAD points directly at a commit rather than at a branch.
    public var isDetached: Bool
    /// HEAD's branch has no commits yet.
    public var isUnborn: Bool
    /// Tracked files with changes, staged or not, as `git status --porcelain` lists them
    /// (a staged new file counts here; renames are not paired, so a rename counts twice).
    public var modifiedCount: Int
    /// Untracked files that are not ignored, as `git status --porcelain` lists them: an untracked
    /// directory counts once, however many files it holds.
    public var untrackedCount: Int
    /// HEAD's committer time.
    public var commitTime: Date?
    /// The committer's time zone offset from UTC, in minutes (330 for +05:30).
    public var commitTimeZoneOffsetMinutes: Int?
    /// The commit subject as `git log --format=%s` shows it: the message's first paragraph,
    /// its lines joined by spaces.
    public var subject: String?
    /// `git describe --tags` for HEAD (for example `v1.2` or `v1.2-3-gabc1234`), without a dirty
    /// suffix; nil when no tag is reachable from HEAD.
    public var describe: String?
    /// The repository is a shallow clone (its history is cut off).
    public var isShallow: Bool
    /// The working tree directory, without a trailing slash; nil for a bare repository.
    public var workdir: String?

    /// Whether tracked files differ from HEAD (`modifiedCount > 0`); stored so result files carry it.
    ///
    /// Untracked files do not make a tree dirty, as with `git describe --dirty`: benchmark
    /// output, logs and scratch files are often untracked, and counting them would mark nearly
    /// every run dirty. `untrackedCount` records them so a report can still show them.
    public private(set) var isDirty: Bool

    public init(
        commit: String?, shortCommit: String?, branch: String?, isDetached: Bool, isUnborn: Bool,
        modifiedCount: Int, untrackedCount: Int, commitTime: Date?, commitTimeZoneOffsetMinutes: Int?,
        subject: String?, describe: String?, isShallow: Bool, workdir: String?
    ) {
        self.commit = commit
        self.shortCommit = shortCommit
        self.branch = branch
        self.isDetached = isDetached
        self.isUnborn = isUnborn
        self.modifiedCount = modifiedCount
        self.isDirty = modifiedCount > 0
        self.untrackedCount = untrackedCount
        self.commitTime = commitTime
        self.commitTimeZoneOffsetMinutes = commitTimeZoneOffsetMinutes
        self.subject = subject
        self.describe = describe
        self.isShallow = isShallow
        self.workdir = workdir
    }
}
