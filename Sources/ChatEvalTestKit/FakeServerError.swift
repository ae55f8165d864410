public struct FakeServerError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
