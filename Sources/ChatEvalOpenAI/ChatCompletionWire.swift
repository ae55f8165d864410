import ChatEvalCore
import Foundation

/// The parts of a streamed `/v1/chat/completions` chunk that ChatEval reads. Everything is
/// optional: servers differ in what they send, and a missing figure is unknown, never 0.
struct ChatCompletionChunk: Decodable {
    struct Choice: Decodable {
        var delta: Delta?
        var finishReason: String?
    }

    struct Delta: Decodable {
        var content: String?
        /// OpenAI's structured refusal: the model declined, and says why.
        var refusal: String?
        /// The delta holds something besides these, not read but progress (`AttemptBounds`): a
        /// role, a reasoning model's thinking, tool calls — any field that is not null or "".
        var holdsMore = false

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: FieldName.self)
            content = try container.decodeIfPresent(String.self, forKey: FieldName("content"))
            refusal = try container.decodeIfPresent(String.self, forKey: FieldName("refusal"))
            holdsMore = container.allKeys.contains { key in
                !["content", "refusal"].contains(key.stringValue) && (try? container.decodeNil(forKey: key)) == false
                    && (try? container.decode(String.self, forKey: key)) != ""
            }
        }
    }

    /// Any field of an object, by its name.
    private struct FieldName: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Token counts. Each is read on its own and dropped when it is not a count (negative, out of
    /// range, not a number): a server's odd figure costs that figure, never the answer it came with.
    struct Usage: Decodable {
        struct PromptDetails: Decodable {
            var cachedTokens: Int?
            private enum CodingKeys: String, CodingKey { case cachedTokens }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                cachedTokens = container.count(.cachedTokens)
            }
        }
        var promptTokens: Int?
        var completionTokens: Int?
        var promptTokensDetails: PromptDetails?

        private enum CodingKeys: String, CodingKey { case promptTokens, completionTokens, promptTokensDetails }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            promptTokens = container.count(.promptTokens)
            completionTokens = container.count(.completionTokens)
            promptTokensDetails = try? container.decodeIfPresent(PromptDetails.self, forKey: .promptTokensDetails)
        }
    }

    /// llama-server's own figures (`timings`), in its units (milliseconds); read leniently, as `usage`.
    struct Timings: Decodable {
        var cacheN: Int?
        var promptN: Int?
        var promptMs: Double?
        var promptPerSecond: Double?
        var predictedN: Int?
        var predictedMs: Double?
        var predictedPerSecond: Double?

        private enum CodingKeys: String, CodingKey {
            case cacheN, promptN, promptMs, promptPerSecond, predictedN, predictedMs, predictedPerSecond
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            cacheN = container.count(.cacheN)
            promptN = container.count(.promptN)
            promptMs = container.measure(.promptMs)
            promptPerSecond = container.measure(.promptPerSecond)
            predictedN = container.count(.predictedN)
            predictedMs = container.measure(.predictedMs)
            predictedPerSecond = container.measure(.predictedPerSecond)
        }
    }

    var choices: [Choice]?
    var usage: Usage?
    var timings: Timings?

    private enum CodingKeys: String, CodingKey { case choices, usage, timings, error }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        choices = try container.decodeIfPresent([Choice].self, forKey: .choices)
        // The figures never cost the chunk: an unreadable `usage` or `timings` is dropped.
        usage = try? container.decodeIfPresent(Usage.self, forKey: .usage)
        timings = try? container.decodeIfPresent(Timings.self, forKey: .timings)
        error = try container.decodeIfPresent(ServerErrorBody.Detail.self, forKey: .error)
    }
    /// An error reported inside the stream (llama-server sends `data: {"error": {...}}`).
    var error: ServerErrorBody.Detail?

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()
}

extension KeyedDecodingContainer {
    /// A token count: a whole number from 0 to 2³¹, else nil.
    func count(_ key: Key) -> Int? {
        guard let value = (try? decodeIfPresent(Double.self, forKey: key)) ?? nil, value.isFinite, value >= 0, value <= Double(Int32.max),
            value == value.rounded()
        else { return nil }
        return Int(value)
    }

    /// A time or rate: a finite number of 0 or more, else nil.
    func measure(_ key: Key) -> Double? {
        guard let value = (try? decodeIfPresent(Double.self, forKey: key)) ?? nil, value.isFinite, value >= 0 else { return nil }
        return value
    }
}
