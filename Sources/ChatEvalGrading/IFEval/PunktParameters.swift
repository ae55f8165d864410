internal import ChatEvalPunktModel

/// The Punkt model's learned tables (NLTK's `PunktParameters`).
struct PunktParameters: Sendable {
    let abbreviations: Set<String>
    let collocations: Set<[String]>
    let sentenceStarters: Set<String>
    let orthographicContext: [String: Int]
    /// First words of the collocations, to skip most collocation lookups.
    var collocationStarts: Set<String> { _collocationStarts }
    private let _collocationStarts: Set<String>

    init(abbreviations: Set<String>, collocations: Set<[String]>, sentenceStarters: Set<String>, orthographicContext: [String: Int]) {
        self.abbreviations = abbreviations
        self.collocations = collocations
        self.sentenceStarters = sentenceStarters
        self.orthographicContext = orthographicContext
        _collocationStarts = Set(collocations.compactMap(\.first))
    }

    /// NLTK's English model, from the entries `ChatEvalPunktModel` parses from its embedded data file, on first use.
    static let english = PunktParameters(
        abbreviations: Set(PunktEnglishModel.abbreviations),
        collocations: Set(PunktEnglishModel.collocations.map { [$0.word, $0.next] }),
        sentenceStarters: Set(PunktEnglishModel.sentenceStarters),
        orthographicContext: Dictionary(PunktEnglishModel.orthographicContext.map { ($0.type, $0.flags) }, uniquingKeysWith: { a, _ in a }))
}
