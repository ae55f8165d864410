/// The cases of Foundation Models' `LanguageModelSession.GenerationError` that ChatEval maps
/// (`ServerFailures.foundationModels`), recognised in a served error body: in its `code` or
/// `type` as the case name in any spelling (`guardrailViolation`, `guardrail_violation`,
/// `GUARDRAIL-VIOLATION`), or in its message as the case name itself (a bridge that passes on
/// the Swift error's description: `guardrailViolation(…)`, `GenerationError.refusal`). A message
/// is not searched for plain words ("rate limited"): those are other servers' sentences.
enum FoundationModelsError: String, CaseIterable, Sendable {
    case exceededContextWindowSize
    case guardrailViolation
    case refusal
    case rateLimited
    case concurrentRequests
    case assetsUnavailable
    case unsupportedLanguageOrLocale
    case decodingFailure

    /// The case `detail` names, or nil.
    init?(_ detail: ServerErrorBody.Detail) {
        let fields = [detail.code, detail.type].compactMap { $0.map(Self.folded) }
        if let named = Self.allCases.first(where: { fields.contains(Self.folded($0.rawValue)) }) {
            self = named
            return
        }
        guard let message = detail.message,
            let named = Self.allCases.first(where: { Self.names(message, $0.rawValue) })
        else { return nil }
        self = named
    }

    /// Lowercased, letters and digits only.
    private static func folded(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) }.map(Character.init))
    }

    /// `name` stands in `message` as a word of its own (not inside a longer identifier).
    private static func names(_ message: String, _ name: String) -> Bool {
        var rest = message[...]
        while let range = rest.range(of: name) {
            let before = range.lowerBound == message.startIndex ? nil : message[message.index(before: range.lowerBound)]
            let after = range.upperBound == message.endIndex ? nil : message[range.upperBound]
            if !(before.map(isIdentifierCharacter) ?? false) && !(after.map(isIdentifierCharacter) ?? false) { return true }
            rest = message[range.upperBound...]
        }
        return false
    }

    private static func isIdentifierCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }
}
