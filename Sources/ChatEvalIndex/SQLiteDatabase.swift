internal import CSQLite
import Foundation

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

/// A prepared statement: owns its `sqlite3_stmt*` and finalizes it on deinit.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let database: SQLiteDatabase

    fileprivate init(_ handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds parameters 1...n (nil binds NULL), resetting the statement first.
    func bind(_ values: [SQLiteValue?]) throws(IndexError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32
            switch value {
            case nil: result = sqlite3_bind_null(handle, index)
            case .integer(let number): result = sqlite3_bind_int64(handle, index, sqlite3_int64(number))
            case .real(let number): result = sqlite3_bind_double(handle, index, number)
            case .text(let text):
                result = text.utf8CString.withUnsafeBufferPointer { csqlite_bind_text(handle, index, $0.baseAddress, Int32($0.count - 1)) }
            case .blob(let data):
                result = data.withUnsafeBytes { csqlite_bind_blob(handle, index, $0.baseAddress, Int32($0.count)) }
            }
            guard result == SQLITE_OK else { throw failure("sqlite3_bind", result) }
        }
    }

    /// Runs a statement that returns no rows.
    func run(_ values: [SQLiteValue?] = []) throws(IndexError) {
        try bind(values)
        let result = sqlite3_step(handle)
        guard result == SQLITE_DONE || result == SQLITE_ROW else { throw failure("sqlite3_step", result) }
    }

    /// Steps to the next row; false when there is none.
    func next() throws(IndexError) -> Bool {
        let result = sqlite3_step(handle)
        if result == SQLITE_ROW { return true }
        guard result == SQLITE_DONE else { throw failure("sqlite3_step", result) }
        return false
    }

    func text(_ column: Int32) -> String? {
        sqlite3_column_text(handle, column).map { String(cString: $0) }
    }

    func integer(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    func real(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func blob(_ column: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    private func failure(_ call: String, _ result: Int32) -> IndexError {
        IndexError(pointOfFailure: call, code: result & 0xFF, message: database.lastMessage, path: database.path)
    }
}

enum SQLiteValue {
    case integer(Int)
    case real(Double)
    case text(String)
    case blob(Data)
}
