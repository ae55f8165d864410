/// Assertion types of promptfoo (https://promptfoo.dev/docs/configuration/expected-outputs/) that
/// ChatEval names differently or does not have, with what to write instead: people who know
/// promptfoo write its names first, and "unknown check type" alone does not tell them where to go.
/// Names promptfoo shares with ChatEval (`contains`, `icontains-any`, `regex`, `is-json`,
/// `levenshtein`, `starts-with`, `equals`...) are not listed: they just work.
enum ForeignCheckNames {
    /// What to write instead of `type`, or nil when it is not a promptfoo name.
    static func hint(for type: String) -> String? {
        let negated = type.hasPrefix(CheckCatalogue.negationPrefix)
        let base = negated ? String(type.dropFirst(CheckCatalogue.negationPrefix.count)) : type
        if let replacement = renamed[base] { return "'\(base)' is promptfoo's name: \(replacement)" }
        if modelGraded.contains(base) {
            return "'\(base)' is a model-graded promptfoo assertion; not supported: model-graded checks are out of scope "
                + "(ChatEval grades with deterministic rules: text, json, ifeval, performance, all/any/not)"
        }
        if let reason = unsupported[base] { return "'\(base)' (promptfoo) is not supported: \(reason)" }
        return nil
    }

    private static let renamed: [String: String] = [
        "latency": "use ttft (seconds to the first token) or total-time (seconds to the whole answer); promptfoo counts "
            + "milliseconds, ChatEval seconds: `latency: 2000` is {type: total-time, max: 2}",
        "contains-json": "use json (structure and required paths) or is-json, with allow-fences: true to accept a ```json block",
        "finish-reason": "use stop-reason with eog, max_tokens or stop_string (OpenAI's stop is eog, length is max_tokens)",
        "assert-set": "use all (every nested check passes) or any (one passes), each with an optional threshold",
        "word-count": "use {type: length, unit: words, min: N, max: M}",
        "is-refusal": "use refusal (passes on a refusal) or not-refusal",
    ]

    private static let modelGraded: Set<String> = [
        "llm-rubric", "g-eval", "model-graded-closedqa", "model-graded-factuality", "factuality", "answer-relevance",
        "context-faithfulness", "context-recall", "context-relevance", "conversation-relevance", "select-best", "similar",
        "pi", "search-rubric", "max-score", "classifier", "moderation",
    ]

    private static let unsupported: [String: String] = [
        "javascript": "ChatEval runs no user code; combine regex, json and all/any/not",
        "python": "ChatEval runs no user code; combine regex, json and all/any/not",
        "webhook": "ChatEval runs no user code and calls no service; combine regex, json and all/any/not",
        "cost": "ChatEval measures time and tokens, not prices; generated-tokens bounds the answer's length",
        "perplexity": "it needs the model's token probabilities, which ChatEval does not record",
        "perplexity-score": "it needs the model's token probabilities, which ChatEval does not record",
        "rouge-n": "reference-overlap scores are not implemented; levenshtein (edit distance to a reference) is the nearest",
        "bleu": "reference-overlap scores are not implemented; levenshtein (edit distance to a reference) is the nearest",
        "gleu": "reference-overlap scores are not implemented; levenshtein (edit distance to a reference) is the nearest",
        "meteor": "reference-overlap scores are not implemented; levenshtein (edit distance to a reference) is the nearest",
        "f-score": "classification scores over a dataset are not implemented",
        "is-html": "only JSON structure is parsed; a regex can look for markup",
        "contains-html": "only JSON structure is parsed; a regex can look for markup",
        "is-xml": "only JSON structure is parsed; a regex can look for markup",
        "contains-xml": "only JSON structure is parsed; a regex can look for markup",
        "is-sql": "only JSON structure is parsed; a regex can look for a statement",
        "contains-sql": "only JSON structure is parsed; a regex can look for a statement",
        "is-valid-function-call": "tool and function calls are out of scope",
        "is-valid-openai-function-call": "tool and function calls are out of scope",
        "is-valid-openai-tools-call": "tool and function calls are out of scope",
        "tool-call-f1": "tool and function calls are out of scope",
    ]
}
