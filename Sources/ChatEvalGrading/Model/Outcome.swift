/// What a check's evaluator returns; the `Check` wrapper adds the name, threshold and negation.
struct Outcome: Sendable {
    var passed: Bool
    var score: Double?
    var detail: String
    var error: String?

    static func pass(_ detail: String, score: Double? = nil) -> Outcome { Outcome(passed: true, score: score, detail: detail) }
    static func fail(_ detail: String, score: Double? = nil) -> Outcome { Outcome(passed: false, score: score, detail: detail) }
    static func failure(error: String, _ detail: String) -> Outcome { Outcome(passed: false, detail: detail, error: error) }
    static func judge(_ passed: Bool, _ detail: String, score: Double? = nil) -> Outcome {
        Outcome(passed: passed, score: score, detail: detail)
    }
}
