struct IFEvalResult: Sendable {
    var followed: Bool
    var detail: String
}
