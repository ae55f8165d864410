/// The time to the first token, part by part, in seconds, each measured on the turn's own clock:
/// rendering the chat template, tokenizing the prompt, evaluating the prompt tokens not served
/// from the cache (of which `reevaluated` is the share spent on reusable tokens the cache lost,
/// estimated at the turn's own per-token rate) and sampling the first token. The parts add up to
/// the TTFT; what they do not account for (taking the cache lock, trimming it) is `other`.
public struct FirstTokenParts: Codable, Sendable, Hashable {
    public var template: Double
    public var tokenize: Double
    public var prefill: Double
    /// Part of `prefill`: re-evaluating reusable tokens the cache did not serve.
    public var reevaluated: Double
    public var firstSample: Double
    public var other: Double

    public init(template: Double, tokenize: Double, prefill: Double, reevaluated: Double, firstSample: Double, other: Double) {
        self.template = template
        self.tokenize = tokenize
        self.prefill = prefill
        self.reevaluated = reevaluated
        self.firstSample = firstSample
        self.other = other
    }

    /// The sum of the parts (the TTFT they were measured from).
    public var total: Double { template + tokenize + prefill + firstSample + other }

    /// The parts from the moments a turn measured (seconds from its start): template rendered,
    /// prompt tokenized, prefill started and ended, first token sampled; `missedShare` of the
    /// evaluated tokens were reusable ones the cache lost.
    public init(templateEnd: Double, tokenizeEnd: Double, prefillStart: Double, prefillEnd: Double, firstToken: Double, missedShare: Double)
    {
        let prefill = max(0, prefillEnd - prefillStart)
        self.init(
            template: max(0, templateEnd), tokenize: max(0, tokenizeEnd - templateEnd), prefill: prefill,
            reevaluated: prefill * min(max(missedShare, 0), 1), firstSample: max(0, firstToken - prefillEnd),
            other: max(0, prefillStart - tokenizeEnd))
    }
}
