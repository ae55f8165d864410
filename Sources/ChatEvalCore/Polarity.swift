/// Whether a bigger value of a metric is an improvement or a regression.
public enum Polarity: String, Codable, Sendable {
    case biggerIsBetter = "bigger_is_better"
    case smallerIsBetter = "smaller_is_better"
}
