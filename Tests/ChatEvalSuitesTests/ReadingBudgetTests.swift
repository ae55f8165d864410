import ChatEvalCore
import Foundation
import Testing

@testable import ChatEvalSuites

/// One reading budget for every YAML reader (bytes, values after alias expansion, depth with
/// aliases), and checked arithmetic where promptfoo's counts multiply. Each input is small; each
/// used to trap, hang or take gigabytes.
@Suite struct ReadingBudgetTests {
    private func errors(_ text: String, file: String = "s.yaml") -> [SuiteError] {
        do {
            _ = try SuiteLoader.parse(text, file: file)
            return []
        } catch {
            return error.errors
        }
    }

    /// 10^8 values in 400 bytes: refused before anything walks them.
    static func laughs(levels: Int, prefix: String) -> String {
        var lines = [prefix, "l0: &l0 [a, a, a, a, a, a, a, a, a, a]"]
        for level in 1...levels {
            lines.append("l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Nesting built from aliases alone: no bracket, no indentation.
    static func aliasChain(levels: Int, prefix: String) -> String {
        var lines = [prefix, "x0: &a0 hello"]
        for level in 1..<levels { lines.append("x\(level): &a\(level)\n- *a\(level - 1)") }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func aBillionLaughsSuiteIsRefusedWithinTheBudget() {
        let clock = ContinuousClock.now
        let found = errors(Self.laughs(levels: 8, prefix: "name: s\nconversations: [{id: c, turns: [Hi]}]"))
        #expect(found.count == 1)
        #expect(found.first?.code == .tooComplex)
        #expect(found.first?.message.contains("over 1000000 values once its aliases are expanded") == true, "\(found)")
        #expect(found.first?.line == 3)
        #expect(ContinuousClock.now - clock < .seconds(60))  // the walk of 10^8 values took minutes
    }

    @Test func aliasNestingIsCountedAsNesting() {
        let found = errors(Self.aliasChain(levels: 70, prefix: "name: s\nconversations: [{id: c, turns: [Hi]}]"))
        #expect(found.map(\.code) == [.tooComplex])
        #expect(found.first?.message.contains("nesting is over 64 levels deep here, counting what aliases bring") == true, "\(found)")
        // 60 levels is within the budget: the suite is read (and fails only for its unknown keys).
        #expect(!errors(Self.aliasChain(levels: 60, prefix: "name: s")).contains { $0.code == .tooComplex })
    }

    /// Deep enough to have overflowed the stack when composed or freed on an ordinary thread.
    @Test func aVeryDeepAliasChainIsRefusedNotOverflowed() {
        let found = errors(Self.aliasChain(levels: 60_000, prefix: "name: s"))
        #expect(found.map(\.code) == [.tooComplex])
    }

    @Test func compactNestedListsAreCountedByThePreCheck() {
        let found = errors("name: s\nx:\n  " + String(repeating: "- ", count: 100) + "a\n")
        #expect(found.first?.message.contains("levels deep; suites are limited to 64") == true, "\(found)")
    }

    @Test func theProjectFileHasTheSameBudget() {
        #expect(throws: SuiteErrors.self) { try ProjectFile.parse(Self.laughs(levels: 7, prefix: "threads: 2"), source: "chateval.yaml") }
        do {
            _ = try ProjectFile.parse(
                "runtime:\n  extra_fields:\n"
                    + Self.laughs(levels: 7, prefix: "").split(separator: "\n").map {
                        "    " + $0
                    }.joined(separator: "\n"), source: "chateval.yaml")
            Issue.record("an alias bomb in runtime.extra_fields was read")
        } catch {
            #expect(error.errors.first?.message.contains("once its aliases are expanded") == true, "\(error.errors)")
        }
        do {
            _ = try ProjectFile.parse(Self.aliasChain(levels: 5_000, prefix: "threads: 2"), source: "chateval.yaml")
            Issue.record("alias nesting in a project file was read")
        } catch {
            #expect(error.errors.first?.message.contains("nesting is over 64 levels") == true)
        }
    }

    /// 63 list variables of two values: 2^63 conversations, an Int overflow in the product.
    @Test func aPromptfooProductThatOverflowsIsRefusedAtItsTest() {
        let variables = (0..<63).map { "      v\($0): [a, b]" }.joined(separator: "\n")
        let found = errors("prompts: ['Say {{v0}}']\ntests:\n  - vars:\n\(variables)\n", file: "promptfooconfig.yaml")
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.code == .tooComplex)
        #expect(found.first?.line == 3)
        #expect(found.first?.message.contains("expand into more than 9223372036854775807 conversations; at most 1000") == true, "\(found)")
    }

    /// The cap is on prompts × tests × list values, not per test: 200 × 200 × 2 was built whole.
    @Test func thePromptsTimesTestsProductIsCapped() {
        let prompts = (0..<200).map { "  - 'p\($0) {{a}}'" }.joined(separator: "\n")
        let tests = (0..<200).map { _ in "  - vars: {a: [x, y]}" }.joined(separator: "\n")
        let found = errors("prompts:\n\(prompts)\ntests:\n\(tests)\n", file: "promptfooconfig.yaml")
        #expect(found.map(\.code) == [.tooComplex])
        #expect(found.first?.message.contains("expands into 80000 conversations (200 prompt(s) × 200 test(s)") == true, "\(found)")
    }

    /// Duplicate ids are made unique by a counter per id, not by retrying every earlier suffix.
    @Test func uniqueNamesAreLinear() {
        var names = PromptfooConfig.UniqueNames()
        let clock = ContinuousClock.now
        let claimed = (0..<60_000).map { _ in names.claim("same") }
        #expect(ContinuousClock.now - clock < .seconds(60))  // quadratic: over 120 s
        #expect(claimed.prefix(3) == ["same", "same-2", "same-3"])
        #expect(Set(claimed).count == 60_000)
        #expect(names.claim("same-2") == "same-2-2")
    }

    @Test func aPromptfooBombIsRefusedBeforeItsValuesAreConverted() {
        let clock = ContinuousClock.now
        let found = errors(Self.laughs(levels: 8, prefix: "prompts: ['{{x}}']") + "tests: [{vars: {x: *l8}}]\n", file: "p.yaml")
        #expect(found.first?.message.contains("once its aliases are expanded") == true, "\(found)")
        #expect(ContinuousClock.now - clock < .seconds(60))  // converting 10^8 values took minutes
    }
}
