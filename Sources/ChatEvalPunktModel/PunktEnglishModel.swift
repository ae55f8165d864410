internal import CPunktModel

/// The tables of NLTK's English Punkt model (`PunktParameters`), as entries: the data file
/// Sources/CPunktModel/english-punkt.txt, which scripts/generate-punkt-model.py writes and the
/// binary embeds (Sources/CPunktModel/punkt_model.c says why), parsed once, at first use.
package enum PunktEnglishModel {
    /// sha256 of the four tables, in the order below, each as its lines in the data file (the
    /// entries, fields joined by a tab, joined by newlines) in UTF-8 followed by one NUL byte, as
    /// the generator prints it. Written here by hand: a change to the data file's tables must
    /// change this line as well, or ChatEvalGradingTests fails.
    package static let tablesSHA256 = "e315694500d9332a45f1dc3011f9af99fd2c87378cd9aa75b8ca328ac4737d91"

    /// Abbreviations (lowercase, without the final period).
    package static var abbreviations: [String] { tables.abbreviations }
    /// Collocations: a word ending in a period and the word after it.
    package static var collocations: [(word: String, next: String)] { tables.collocations }
    /// Frequent sentence starters.
    package static var sentenceStarters: [String] { tables.sentenceStarters }
    /// Orthographic contexts: a word type and its flags.
    package static var orthographicContext: [(type: String, flags: Int)] { tables.orthographicContext }

    private static let tables = PunktModelTables(
        utf8: UnsafeBufferPointer(start: chateval_punkt_english_bytes(), count: chateval_punkt_english_count()))
}
