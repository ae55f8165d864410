import ChatEvalCore

/// The chat benchmark `chateval run --model X.gguf` replays when no suite is in sight: what
/// llama-bench's `-m` alone measures, as a chat app meets it — time to first token per turn,
/// prefill and decode rates, and how much of each later turn's prompt the KV cache serves.
///
/// Three conversations of four turns, at known depths: one of short questions (the context stays
/// under a few hundred tokens), and two that open with a document of about 500 and about 1,500
/// words (some 700 and 2,000 tokens with common tokenizers), then ask three short follow-ups
/// over it — so turn 1 measures prefill at that depth and turns 2 to 4 measure reuse. Every
/// answer is capped at 64 tokens. There are no checks on the answers (a base model that rambles
/// is measured as well as a chat model that answers); the one gate is that no turn fails.
public enum BuiltInBenchmark {
    /// What result files and reports name the suite's file: not a path on disk.
    public static let path = BuiltInSuite.chatBenchmarkPath

    /// The suite's name in reports.
    public static let name = "chat-benchmark"

    /// One line on what it replays, for the run's header.
    public static let summary =
        "3 conversations of 4 turns (short, about 450 and about 1,450 words deep), 64-token answers, no answer checks"

    /// The suite, parsed from `text` as a file would be.
    public static func suite() throws(SuiteErrors) -> Suite {
        try SuiteLoader.parse(text, file: path)
    }

    /// The suite's YAML, as a user could save it and edit it.
    public static var text: String {
        """
        # ChatEval's built-in chat benchmark (run when no suite is given or found).
        name: \(name)
        description: Four-turn chats at three depths; TTFT, prefill, decode and reuse per turn, no answer checks.
        defaults:
          max_tokens: 64
        gates:
          max_failed_turns: 0
        conversations:
          - id: short
            description: Four short questions; the context stays shallow.
            tags: [depth-short]
            turns:
              - user: Name three colours of the rainbow.
              - user: Which of them has the longest wavelength?
              - user: Write one sentence about that colour.
              - user: Now say the same sentence in fewer words.
        \(document(id: "document-500", sections: 4))
        \(document(id: "document-1500", sections: 13))
        """
    }

    /// A conversation that opens with a document of `sections` sections (about 112 words each), then three
    /// follow-ups over it.
    private static func document(id: String, sections: Int) -> String {
        let body = (0..<sections).map { "Section \($0 + 1). " + paragraphs[$0 % paragraphs.count] }.joined(separator: " ")
        let words = body.split(separator: " ").count
        return """
              - id: \(id)
                description: A document of \(words) words, then three follow-ups over it.
                tags: [document]
                turns:
                  - user: "Read this report and summarise it in two sentences. \(body)"
                  - user: Which section mentions the reservoir?
                  - user: What would you change first, and why?
                  - user: Give that answer as a short list.
            """
    }

    /// Plain prose, written for this benchmark, cycled to the length a document needs.
    private static let paragraphs = [
        "The town of Halden draws its water from a reservoir in the hills to the north, built in 1931 and enlarged twice since. "
            + "A gravity main carries the water eleven kilometres to the treatment works, where it is filtered through sand and "
            + "charcoal, dosed with chlorine and tested every four hours. In a dry summer the reservoir falls to about a third of "
            + "its capacity, and the council asks households to stop watering gardens and washing cars with hoses. The works can "
            + "treat eighteen million litres a day, which is enough for the town's twelve thousand homes and its two factories, "
            + "but not for the hotels that open along the lake in July.",
        "Most of the pipes under the old town are cast iron and were laid before the war. They leak at the joints, and the "
            + "engineers estimate that a fifth of the treated water never reaches a tap. Replacing them street by street costs "
            + "about four hundred thousand a kilometre, because the streets are narrow and every trench has to be dug by hand "
            + "around the cellars. The newer districts to the east were built with plastic pipes and lose very little. A pilot "
            + "scheme last year fitted pressure sensors to the worst mains, and the night-time readings found six large leaks in "
            + "the first month.",
        "The council has three options on the table. The first is to raise the dam by two metres, which would add a quarter "
            + "to the reservoir's capacity but flood a stretch of the valley road. The second is to spend the same money on "
            + "replacing the oldest mains, saving water that is already treated. The third is to buy water from the regional "
            + "network in the summer months, which needs a new pumping station and a contract that the regional company has "
            + "not yet offered. A public meeting in March heard from farmers, hotel owners and the fire service, who all asked "
            + "for a decision before the next dry year.",
    ]
}
