internal import ChatEvalPunktModel

/// The Punkt model's learned tables (NLTK's `PunktParameters`).
struct PunktParameters: Sendable {
    /// The collocations, as pairs of types; looked up only for a first word the table marks.
    let collocations: Set<[String]>
    /// Every type the model knows — abbreviations, sentence starters, first words of
    /// collocations and orthographic contexts — in the one table a token looks up
    /// (`PunktTypeTable`).
    let types: PunktTypeTable

    /// The model's tables as it lists them (a type listed twice in `orthographicContext` keeps
    /// its first flags).
    init(
        abbreviations: [String], collocations: [(word: String, next: String)], sentenceStarters: [String],
        orthographicContext: [(type: String, flags: Int)]
    ) {
        self.collocations = Set(collocations.map { [$0.word, $0.next] })
        types = PunktTypeTable(
            abbreviations: abbreviations, sentenceStarters: sentenceStarters, collocationStarts: collocations.map(\.word),
            orthographicContext: orthographicContext)
    }

    /// NLTK's English model, from the entries `ChatEvalPunktModel` parses from its embedded data file, on first use.
    static let english = PunktParameters(
        abbreviations: PunktEnglishModel.abbreviations, collocations: PunktEnglishModel.collocations,
        sentenceStarters: PunktEnglishModel.sentenceStarters, orthographicContext: PunktEnglishModel.orthographicContext)
}
