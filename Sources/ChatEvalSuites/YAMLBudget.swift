import ChatEvalCore
import Foundation
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
