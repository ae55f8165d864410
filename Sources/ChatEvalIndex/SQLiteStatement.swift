internal import CSQLite
import Foundation

/// A prepared statement: owns its `sqlite3_stmt*` and finalizes it on deinit.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let database: SQLiteDatabase

    /// Made by `SQLiteDatabase.prepare` only: it takes ownership of `handle`.
    init(_ handle: OpaquePointer, database: SQLiteDatabase) {
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
