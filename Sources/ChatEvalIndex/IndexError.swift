/// A failed SQLite call: which call, SQLite's result code and message, and the database file.
public struct IndexError: Error, Sendable, CustomStringConvertible {
    /// The SQLite function that failed, e.g. `sqlite3_prepare_v2`, or the operation ChatEval was doing.
    public var pointOfFailure: String
    /// SQLite's primary result code (`SQLITE_CORRUPT` is 11, `SQLITE_NOTADB` 26), or 0 for a failure ChatEval decided.
    public var code: Int32
    public var message: String
    public var path: String

    public var description: String {
        "results index \(path): \(pointOfFailure) failed (\(code): \(message)); "
            + "`chateval index --rebuild` rebuilds it from the result files and git notes"
    }
}
