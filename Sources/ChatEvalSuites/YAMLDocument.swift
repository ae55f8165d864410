import ChatEvalCore
import Foundation
import Synchronization
internal import Yams

/// One reading budget for every YAML document ChatEval reads — suites, project files, promptfoo
/// configs, and the suites a journal's header carries: its bytes (checked by each reader before
/// reading), the values it holds once aliases are expanded, and its depth with aliases counted
/// as the nesting they bring.
///
/// Aliases are why the text alone cannot be judged: `b: &b [*a, *a]` doubles what `a` holds in a
/// few bytes (a 600-byte "billion laughs" holds 10^9 values), and `c: &c\n- *b` nests one level
/// deeper without a bracket or an indent. Yams resolves an alias to the anchored value itself,
/// shared, so the composed document stays small while any walk over it is not; the budget is
/// checked right after composing, by a walk that stops at the first excess (at most
/// `maximumValues` steps, whatever the aliases multiply), before anything else walks it.
public struct YAMLBudget: Sendable, Hashable {
    /// Values (scalars, lists, mappings, keys) after alias expansion.
    public var maximumValues: Int
    /// Levels of lists and mappings, aliases included.
    public var maximumDepth: Int

    public init(maximumValues: Int, maximumDepth: Int) {
        self.maximumValues = maximumValues
        self.maximumDepth = maximumDepth
    }

    /// Every reader's budget: a suite of 10,000 conversations of 10 turns with checks fits.
    public static let standard = YAMLBudget(maximumValues: 1_000_000, maximumDepth: SuiteLoader.maximumNesting)

    /// The first excess in `root`, located at the value where it was found; nil within budget.
    func excess(in root: Node, file: String) -> SuiteError? {
        var pending: [(node: Node, depth: Int)] = [(root, 1)]
        var values = 1
        while let (node, depth) = pending.popLast() {
            if depth > maximumDepth {
                return SuiteError(
                    .tooComplex, file: file, line: node.mark?.line, column: node.mark?.column,
                    "nesting is over \(maximumDepth) levels deep here, counting what aliases bring; files are limited to \(maximumDepth)",
                    hint: "an alias nests the whole anchored value where it is used: use fewer aliases inside aliased values")
            }
            let children: [Node]
            switch node {
            case .mapping(let mapping): children = mapping.flatMap { [$0.key, $0.value] }
            case .sequence(let sequence): children = Array(sequence)
            case .scalar, .alias: children = []
            }
            values += children.count
            if values > maximumValues {
                return SuiteError(
                    .tooComplex, file: file, line: node.mark?.line, column: node.mark?.column,
                    "the file holds over \(maximumValues) values once its aliases are expanded (an alias counts each time it "
                        + "is used); files are limited to \(maximumValues)",
                    hint: "aliases of aliases multiply: write the values out, or split the file")
            }
            pending.append(contentsOf: children.map { ($0, depth + 1) })
        }
        return nil
    }
}

/// Composes YAML text for every reader, within `YAMLBudget`.
enum YAMLDocument {
    /// The composed document of `text` (nil for an empty one), or its syntax error located, or the
    /// budget's excess. Composing and the budget's walk run on a thread with a large stack: both
    /// libyaml's composer and the freeing of a document nest once per level, and a refused
    /// document is freed there, however deep its aliases made it.
    static func compose(_ text: String, file: String, budget: YAMLBudget = .standard) throws(SuiteErrors) -> Node? {
        let outcome = LargeStack.run { () -> DocumentBox in
            do {
                guard let root = try Yams.compose(yaml: text) else { return DocumentBox(.success(nil)) }
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

/// Runs work on a thread with a 1 GiB stack (address space reserved, not memory used) and waits.
enum LargeStack {
    static let bytes = 1 << 30

    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let value = body()
            result.withLock { $0 = value }
            done.signal()
        }
        thread.stackSize = bytes
        thread.start()
        done.wait()
        return result.withLock { $0! }
    }
}
