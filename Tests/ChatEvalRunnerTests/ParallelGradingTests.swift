import ChatEvalCore
import ChatEvalStore
import ChatEvalSuites
import ChatEvalTestKit
import Foundation
import Synchronization
import Testing

@testable import ChatEvalRunner

/// `chateval grade` grades conversations on every core: the record must be the one a single
/// thread writes, byte for byte, however the conversations fall on the threads — including the
/// state a grading shares or keeps per answer (the regex step pool an answer's checks draw on,
/// placeholders filled from earlier turns, checks built once per process).
@Suite struct ParallelGradingTests {
    @Test func orderedConcurrentMapKeepsOrderAndTransformsEachItemOnce() {
        for count in [0, 1, 2, 3, 1_000] {
            for threads in [1, 2, 7] {
                let calls = Atomic<Int>(0)
                let items = Array(0..<count)
                let mapped = OrderedConcurrentMap.map(items, threads: threads) { item -> String in
                    calls.add(1, ordering: .relaxed)
                    return "item \(item)"
                }
                #expect(mapped == items.map { "item \($0)" }, "\(count) items on \(threads) threads")
                #expect(calls.load(ordering: .relaxed) == count)
            }
        }
    }

    /// The results are moved out of the map's slots, not copied: each must be released exactly
    /// once, when the returned array is (not while it holds them, and not a second time by the
    /// slots — which would crash or count twice).
    @Test func orderedConcurrentMapReleasesEachResultOnceWithItsArray() {
        for threads in [1, 2, 7] {
            let released = ReleaseCount()
            do {
                let mapped = OrderedConcurrentMap.map(Array(0..<500), threads: threads) { TrackedResult(value: $0, released: released) }
                #expect(mapped.map(\.value) == Array(0..<500), "\(threads) threads")
                withExtendedLifetime(mapped) { #expect(released.value.load(ordering: .relaxed) == 0, "\(threads) threads") }
            }
            #expect(released.value.load(ordering: .relaxed) == 500, "\(threads) threads")
        }
    }

    /// Conversations that differ in what makes grading order-sensitive if state leaked between
    /// threads: a pattern that exhausts its answer's regex budget (so the answer's later regex
    /// checks fail with an error), placeholders quoting the previous turn, failed and skipped turns.
    private static func makeSuite() throws -> Suite {
        var text = "name: parallel\nconversations:\n"
        for index in 0..<120 {
            text += """
                  - id: c\(index)
                    checks: [{type: generated-tokens, aggregate: max, max: 40}]
                    turns:
                      - user: Say something about \(index).
                        checks:
                          - {type: regex, value: '(a+)+$'}
                          - {type: regex, value: '(b|bb)+c'}
                          - {type: contains, value: '\(index)'}
                          - {type: "length_constraints:number_sentences", num_sentences: 2, relation: at least}
                      - user: "Repeat {{turn1.answer}}"
                        checks:
                          - {type: icontains, value: "{{turn1.answer}}"}
                          - {type: ttft, max: 0.3}

                """
        }
        return try SuiteLoader.parse(text, file: "parallel.yaml")
    }

    private static func answersFile() -> String {
        var lines: [String] = []
        for index in 0..<120 {
            // Two answers make '(a+)+$' backtrack past the step budget (0.2 s each); the others match fast or not at all.
            let first = index % 60 == 7 ? String(repeating: "a", count: 40) + "!" : "About \(index). It is a number. bbbc"
            lines.append(
                #"{"conversation": "c\#(index)", "turn": 1, "answer": "\#(first)", "#
                    + #""metrics": {"time_to_first_token": 0.\#(index % 7), "generated_tokens": \#(index % 50)}}"#
            )
            switch index % 5 {
            case 0:
                lines.append(#"{"conversation": "c\#(index)", "turn": 2, "failure": {"code": "timeout", "message": "no answer in 30 s"}}"#)
            case 1: break  // turn 2 is left out: graded as skipped
            default:
                lines.append(
                    #"{"conversation": "c\#(index)", "turn": 2, "answer": "I said \#(first)", "metrics": {"time_to_first_token": 0.2}}"#)
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func anAnswersFileGradesTheSameOnOneThreadAndOnMany() throws {
        let suite = try Self.makeSuite()
        let lines = try AnswerGrader.parse(Self.answersFile(), file: "answers.jsonl", for: suite)
        let serial = AnswerGrader.grade(suite, answers: lines, threads: 1)
        // The case is built to fail if grading were order-sensitive: budget errors, skipped and failed turns are all there.
        let verdicts = serial.conversations.flatMap { $0.turns.flatMap { $0.checks ?? [] } }
        #expect(verdicts.contains { $0.error != nil }, "no check ran out of its regex budget")
        #expect(verdicts.contains { $0.passed } && verdicts.contains { !$0.passed && $0.error == nil })
        #expect(serial.conversations.contains { $0.turns.contains { $0.status == .skipped } })
        #expect(serial.conversations.contains { $0.turns.contains { $0.status == .failed } })
        let expected = try Self.json(serial)
        for threads in [2, 3, 8] {
            #expect(try Self.json(AnswerGrader.grade(suite, answers: lines, threads: threads)) == expected, "\(threads) threads")
        }
    }

    @Test func aRecordedRunRegradesTheSameOnOneThreadAndOnMany() throws {
        let suite = try Self.makeSuite()
        let lines = try AnswerGrader.parse(Self.answersFile(), file: "answers.jsonl", for: suite)
        var record = RunRecord(
            runId: "r1", startedAt: Date(timeIntervalSince1970: 0), command: ["test"], git: nil,
            machine: MachineInfo.current(), runtime: ScriptedRuntime(replies: []).identity, modelSha256: nil,
            settings: RunSettings(cacheMode: .session, repetitions: 1, warmupConversations: 0))
        record.suites = [AnswerGrader.grade(suite, answers: lines)]
        let serial = ResultRegrading.regrade(record, with: [suite], threads: 1)
        #expect(serial.record.suites.first?.conversations.count == 120)
        let expected = try Self.json(serial.record)
        for threads in [2, 5] {
            let parallel = ResultRegrading.regrade(record, with: [suite], threads: threads)
            #expect(try Self.json(parallel.record) == expected, "\(threads) threads")
            #expect(parallel.notes == serial.notes)
        }
    }
}

/// Releases counted across threads.
private final class ReleaseCount: Sendable {
    let value = Atomic<Int>(0)
}

/// A result that counts its own release.
private final class TrackedResult: Sendable {
    let value: Int
    private let released: ReleaseCount

    init(value: Int, released: ReleaseCount) {
        self.value = value
        self.released = released
    }
    deinit { released.value.add(1, ordering: .relaxed) }
}
