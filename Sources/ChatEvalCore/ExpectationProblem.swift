/// Why a `ChatEval-Expect` trailer was not read.
public struct ExpectationProblem: Error, Sendable, Hashable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
