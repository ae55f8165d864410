/// `length`: counts in one unit, within min...max.
///
/// - characters: user-perceived characters (grapheme clusters: an emoji with modifiers is one).
/// - words: runs of word characters (Python's `\w+`, as IFEval counts words; a run of CJK ideographs is one word).
/// - sentences: Punkt sentences, as IFEval counts them (see `PunktSentenceTokenizer`).
/// - lines: lines separated by `\n`; a final line break does not start a new line; an empty answer has 0.
/// - paragraphs: blocks of non-blank lines separated by one or more blank lines.
struct LengthCheck: CheckEvaluator {
    enum Unit: String, CaseIterable, Sendable { case characters, words, sentences, lines, paragraphs }
    let unit: Unit
    let min: Int?
    let max: Int?
    /// "expected between 20 and 400 words, found ": written once, when the check is built.
    private let expectation: String

    init(unit: Unit, min: Int?, max: Int?) {
        self.unit = unit
        self.min = min
        self.max = max
        let bounds: String
        switch (min, max) {
        case (let lo?, let hi?): bounds = "between \(lo) and \(hi)"
        case (let lo?, nil): bounds = "at least \(lo)"
        case (nil, let hi?): bounds = "at most \(hi)"
        case (nil, nil): bounds = "any number of"
        }
        expectation = "expected \(bounds) \(unit.rawValue), found "
    }

    static func measure(_ unit: Unit, _ subject: GradingSubject) -> Int {
        let scalars = subject.analysis.scalars
        switch unit {
        case .characters: return subject.answer.count
        case .words: return IFEvalText.countWords(scalars)
        case .sentences: return PunktSentenceTokenizer.english.countSentences(scalars)
        case .lines:
            guard !scalars.isEmpty else { return 0 }
            let breaks = scalars.reduce(0) { $0 + ($1 == "\n" ? 1 : 0) }
            return breaks + (scalars.last == "\n" ? 0 : 1)
        case .paragraphs:
            var count = 0, inParagraph = false
            for line in PythonText.split(scalars[...], separator: ["\n"]) {
                if PythonText.isBlank(line) {
                    inParagraph = false
                } else if !inParagraph {
                    inParagraph = true
                    count += 1
                }
            }
            return count
        }
    }

    func evaluate(_ subject: GradingSubject) -> Outcome {
        let n = Self.measure(unit, subject)
        let ok = (min.map { n >= $0 } ?? true) && (max.map { n <= $0 } ?? true)
        return .judge(ok, "\(expectation)\(n): \(subject.analysis.quotedHead)")
    }
}
