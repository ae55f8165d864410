import ChatEvalCore
import Foundation
import Synchronization
internal import Yams

/// Composes YAML text for every reader, within `YAMLBudget`.
enum YAMLDocument {
    /// The composed document of `text` (nil for an empty one), or its syntax error located, or the
    /// budget's excess. Composing and the budget's walk run on a thread with a large stack: both
    /// libyaml's composer and the freeing of a document nest once per level, and a refused
    /// document is freed there, however deep its aliases made it.
    static func compose(_ text: String, file: String, budget: YAMLBudget = .standard) throws(SuiteErrors) -> Node? {
        let outcome = LargeStack.run { () -> DocumentBox in
            do {
                // Without Yams' tag rules (`Resolver.basic`: every untagged scalar is text): its default rules
                // run up to seven NSRegularExpressions on every plain scalar, and again on the key made for each
                // `mapping["x"]` lookup — a fifth of loading a large suite, for tags no reader here looks at
                // (they read a scalar's text and style and parse numbers themselves).
                // Keys are then equal when their text is: a plain `1` and a quoted "1" in one mapping are
                // duplicates, as the readers, which look keys up by text, would take them to be.
                guard let root = try Yams.compose(yaml: text, Resolver.basic) else { return DocumentBox(.success(nil)) }
                if let excess = budget.excess(in: root, file: file) { return DocumentBox(.failure(SuiteErrors([excess]))) }
                return DocumentBox(.success(root))
            } catch {
                return DocumentBox(.failure(SuiteErrors([SuiteLoader.syntaxError(error, file: file, text: text)])))
            }
        }
        return try outcome.result.get()
    }

    /// Carries a composed document off the composing thread (Yams' `Node` is not `Sendable`; it is
    /// handed over once, after the thread is done with it).
    private final class DocumentBox: @unchecked Sendable {
        let result: Result<Node?, SuiteErrors>
        init(_ result: Result<Node?, SuiteErrors>) { self.result = result }
    }
}
