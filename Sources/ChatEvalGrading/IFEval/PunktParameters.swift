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

    /// NLTK's English model, parsed from its embedded data file (`ChatEvalPunktModel`) on first use.
    static let english = PunktParameters(
        abbreviations: Set(lines(PunktEnglishModel.abbreviations)),
        collocations: Set(
            lines(PunktEnglishModel.collocations).map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }),
        sentenceStarters: Set(lines(PunktEnglishModel.sentenceStarters)),
        orthographicContext: Dictionary(
            lines(PunktEnglishModel.orthographicContext).compactMap { line -> (String, Int)? in
                guard let tab = line.lastIndex(of: "\t"), let flags = Int(line[line.index(after: tab)...]) else { return nil }
                return (String(line[..<tab]), flags)
            }, uniquingKeysWith: { a, _ in a }))

    private static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}
