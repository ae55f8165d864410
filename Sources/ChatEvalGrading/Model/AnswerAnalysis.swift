import ChatEvalCore
import Foundation

/// Lazily computed views of an answer. Immutable once computed; a lock guards the first computation.
final class AnswerAnalysis: @unchecked Sendable {
    let text: String
    private let lock = NSLock()
    private var cachedSimpleLowered: Scalars?
    private var cachedQuotedHead: String?

    /// Code points, as Python indexes them (computed up front: nearly every check reads them).
    let scalars: Scalars

    /// The regex steps all checks of this answer may still spend.
    let regexSteps = RegexStepPool()

    init(_ text: String) {
        self.text = text
        scalars = text.scalars
    }

    /// The answer's start as details quote it (`Excerpt.head`): most failing checks of an answer
    /// quote it, so it is written once per answer.
    var quotedHead: String {
        lock.lock()
        let existing = cachedQuotedHead
        lock.unlock()
        if let existing { return existing }
        // From the code points already decoded, where no secret is registered: the quotation
        // `Excerpt.head(text)` writes (with a secret, the two may widen a cut differently).
        let value = Secrets.isEmpty ? Excerpt.head(scalars[...]) : Excerpt.head(text)
        lock.lock()
        defer { lock.unlock() }
        if cachedQuotedHead == nil { cachedQuotedHead = value }
        return cachedQuotedHead ?? value
    }

    /// Code points mapped by simple lowercase (offsets aligned with `scalars`), for `icontains`.
    var simpleLowered: Scalars {
        lock.lock()
        let existing = cachedSimpleLowered
        lock.unlock()
        if let existing { return existing }
        let value = scalars.simpleLowercased
        lock.lock()
        defer { lock.unlock() }
        if cachedSimpleLowered == nil { cachedSimpleLowered = value }
        return cachedSimpleLowered ?? value
    }
}
