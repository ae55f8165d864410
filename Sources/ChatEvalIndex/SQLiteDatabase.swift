internal import CSQLite
import Foundation

/// One open SQLite database: owns its `sqlite3*` and closes it on deinit. Not `Sendable`: one
/// task at a time (SQLite's own locking makes several processes safe).
final class SQLiteDatabase {
    private let handle: OpaquePointer
    let path: String

    init(path: String) throws(IndexError) {
        var handle: OpaquePointer?
        let result = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard result == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            throw IndexError(pointOfFailure: "sqlite3_open_v2", code: result, message: message, path: path)
        }
        self.handle = handle
        self.path = path
        // Another chateval updating the same index waits for it rather than failing.
        sqlite3_busy_timeout(handle, 10_000)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs SQL without results (several statements allowed).
    func execute(_ sql: String) throws(IndexError) {
        var error: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(handle, sql, nil, nil, &error)
        defer { sqlite3_free(error) }
        guard result == SQLITE_OK else {
            throw IndexError(
                pointOfFailure: "sqlite3_exec", code: result & 0xFF,
                message: error.map { String(cString: $0) } ?? lastMessage, path: path)
        }
    }

    func prepare(_ sql: String) throws(IndexError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard result == SQLITE_OK, let statement else {
            throw IndexError(pointOfFailure: "sqlite3_prepare_v2", code: result & 0xFF, message: lastMessage, path: path)
        }
        return SQLiteStatement(statement, database: self)
    }

    /// The first column of the first row of `sql` (0 without rows); the statement is finished
    /// on return, so it holds no read transaction open.
    func integer(_ sql: String) throws(IndexError) -> Int {
        let statement = try prepare(sql)
        return try statement.next() ? statement.integer(0) : 0
    }

    /// Starts a write transaction (taking the write lock at once, so two updaters queue up).
    /// Written as begin/commit/rollback calls, not a closure: closures with typed throws crash
    /// this compiler.
    func begin() throws(IndexError) { try execute("BEGIN IMMEDIATE") }

    func commit() throws(IndexError) { try execute("COMMIT") }

    func rollback() { try? execute("ROLLBACK") }

    var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }
}
