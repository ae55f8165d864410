/// All problems found in one file (validation reports them all, not just the first).
public struct SuiteErrors: Error, Sendable, CustomStringConvertible {
    public var errors: [SuiteError]
    public init(_ errors: [SuiteError]) { self.errors = errors }
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
