import ChatEvalCore
import ChatEvalRuntime
import Foundation

/// A bounded, reproducible mutational fuzzer: from seed inputs (the shipped suites and project
/// file, answers for them), it applies random edits — byte flips, insertions, deletions,
/// duplications, splices, YAML and JSON tokens, deep nesting, large repetitions — and feeds each
/// result to every target, for a fixed time, from a fixed seed.
///
/// A crash ends the process: the input that caused it is left in
/// `$CHATEVAL_CACHE/fuzz/<target>.last` (written before each run). An input slower than the
/// limit is saved beside it and fails the run.
///
/// The time is this process's CPU time, so that how much is fuzzed does not depend on the wall
/// clock: `make test` runs the smoke while set-up (llama-server's build) may still hold part of
/// the cores. A target stops at ten times its share in wall time all the same, so that a target
/// that waits without using the CPU cannot stretch the run. The limit per input is wall time: an
/// input slower than it is reported (an input that never returns is not: nothing interrupts it).
struct MutationalFuzzer {
    let seed: UInt64
    /// CPU seconds of fuzzing, shared equally by the targets.
    let seconds: Double
    /// Wall seconds one input may take.
    let limitPerInput: Double

    private static let tokens = [
        "{", "}", "[", "]", ":", ": ", "- ", "\n", "\n  ", "\n    - ", "&a ", "*a", "<<: *a", "!!str ", "!!binary ", "? ", "|", ">",
        "\"", "'", "#", "%YAML 1.2\n", "---\n", "...\n", "\t", "\r\n", "\u{0}", "\u{FEFF}", "{{turn1.answer}}", "{{vars.x}}", "{{",
        "}}", "1e999", "-1", "0x10", "9223372036854775808", "1e19", ".nan", "null", "~", "true", "type: ", "regex", "(", ")", "(?:",
        "\\", "*", "+", "{1000000}", "checks: ", "turns: ", "user: ", "conversations: ", "gates: ", "metrics: ", "compare: ",
        "\"conversation\": ", "\"turn\": ", "\"answer\": ", "\"metrics\": ", "\"failure\": ",
        // Placeholders that chain: each quote of an earlier turn multiplies what it expands to.
        "{{turn1.user}}", "{{turn2.user}}{{turn2.user}}", "{{turn1.user}}{{turn1.user}}{{turn1.user}}{{turn1.user}}", "{{turn3.answer}}",
        // Result files and journals: fields a record must keep sane.
        "\"schema_version\": 99", "\"schema_version\": -1", "\"time_to_first_token\": -1", "\"prompt_tokens\": -5",
        "\"reused_tokens\": 100000", "\"repetition\": -3", "\"status\": \"complete\"", "\"left_out\": \"x\"", "\"attempt\": 2",
    ]

    /// Runs every target in turn for its share of the time. Returns false when an input was too slow.
    func run() -> Bool {
        let folder = URL(
            fileURLWithPath: ProcessInfo.processInfo.environment["CHATEVAL_CACHE"]
                ?? FileManager.default.homeDirectoryForCurrentUser.path + "/.cache/chateval"
        ).appendingPathComponent("fuzz")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var random = SeededRandom(seed: seed)
        var slow = 0
        print(
            "fuzzing for \(Int(seconds)) s of CPU time from seed \(seed); the input in progress is kept in \(folder.path)/<target>.last")
        for target in FuzzTarget.allCases {
            let seeds = Self.seeds(for: target)
            guard !seeds.isEmpty else {
                print("  \(target.rawValue): no seed inputs found (run from the package root); not fuzzed")
                continue
            }
            let budget = seconds / Double(FuzzTarget.allCases.count)
            let last = folder.appendingPathComponent("\(target.rawValue).last")
            let inProgress = InputInProgress(last)
            // CPU time where the process clock can be read, wall time where it cannot.
            let wall = Stopwatch(), cpu = CPUStopwatch()
            var runs = 0, longest = 0.0, largest = 0
            var slowest = Data()
            while (cpu.elapsed ?? wall.elapsed) < budget && wall.elapsed < 10 * budget {
                let input = mutate(seeds[Int(random.next() % UInt64(seeds.count))], seeds: seeds, &random)
                inProgress.keep(input)
                let began = ContinuousClock.now
                target.exercise(input)
                let took = (ContinuousClock.now - began).seconds
                runs += 1
                if took > longest { slowest = input }
                longest = max(longest, took)
                largest = max(largest, input.count)
                if took > limitPerInput {
                    slow += 1
                    let saved = folder.appendingPathComponent("\(target.rawValue).slow-\(slow)")
                    try? input.write(to: saved)
                    print("  \(target.rawValue): an input took \(String(format: "%.2f", took)) s (limit \(limitPerInput) s): \(saved.path)")
                }
            }
            inProgress.close()
            try? FileManager.default.removeItem(at: last)
            // The slowest input, to look at (kept until the next run).
            try? slowest.write(to: folder.appendingPathComponent("\(target.rawValue).slowest"))
            print(
                String(
                    format: "  %-14@ %6d inputs, 0 crashes, slowest %.3f s, largest %d bytes", target.rawValue as NSString, runs, longest,
                    largest))
        }
        print("the slowest input of each target: \(folder.path)/<target>.slowest")
        print(slow == 0 ? "fuzz: 0 crashes, 0 inputs over \(limitPerInput) s" : "fuzz: \(slow) input(s) over \(limitPerInput) s")
        return slow == 0
    }

    private func mutate(_ seed: Data, seeds: [Data], _ random: inout SeededRandom) -> Data {
        var bytes = [UInt8](seed)
        let edits = 1 + Int(random.next() % 8)
        for _ in 0..<edits {
            let position = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count + 1))
            switch random.next() % 9 {
            case 0 where !bytes.isEmpty:  // flip a byte
                bytes[min(position, bytes.count - 1)] ^= UInt8(truncatingIfNeeded: 1 << (random.next() % 8))
            case 1:  // insert a random byte
                bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
            case 2 where !bytes.isEmpty:  // delete a range
                let end = min(bytes.count, position + 1 + Int(random.next() % 32))
                bytes.removeSubrange(min(position, bytes.count - 1)..<end)
            case 3 where !bytes.isEmpty:  // duplicate a range
                let start = min(position, bytes.count - 1)
                let chunk = bytes[start..<min(bytes.count, start + 1 + Int(random.next() % 256))]
                bytes.insert(contentsOf: chunk, at: start)
            case 4, 5:  // a token
                bytes.insert(contentsOf: Array(Self.tokens[Int(random.next() % UInt64(Self.tokens.count))].utf8), at: position)
            case 6:  // splice another seed
                let other = [UInt8](seeds[Int(random.next() % UInt64(seeds.count))])
                let from = other.isEmpty ? 0 : Int(random.next() % UInt64(other.count))
                bytes.insert(contentsOf: other[from..<min(other.count, from + 200)], at: position)
            case 7:  // deep nesting
                let depth = 1 + Int(random.next() % 5_000)
                let (open, close) = random.next() % 2 == 0 ? ("[", "]") : ("(", ")")
                bytes.insert(
                    contentsOf: Array(String(repeating: open, count: depth).utf8) + Array(String(repeating: close, count: depth).utf8),
                    at: position)
            case 8 where !bytes.isEmpty:  // a large repetition
                let start = min(position, bytes.count - 1)
                let chunk = Array(bytes[start..<min(bytes.count, start + 1 + Int(random.next() % 64))])
                let copies = min(1 + Int(random.next() % 4_000), max(1, (256 << 10) / chunk.count))
                bytes.insert(contentsOf: Array(repeating: chunk, count: copies).flatMap { $0 }, at: start)
            default:
                bytes.append(UInt8(truncatingIfNeeded: random.next()))
            }
            if bytes.count > 1 << 20 { bytes.removeLast(bytes.count - (1 << 20)) }
        }
        return Data(bytes)
    }

    /// Seed inputs for a target.
    static func seeds(for target: FuzzTarget) -> [Data] {
        switch target {
        case .suite:
            return FuzzInputs.shippedSuites.map { Data($0.text.utf8) }
                + [
                    // Anchors and aliases (nesting and multiplying): the reading budget's cases.
                    Data(
                        ("name: s\nx0: &a0 [y]\nx1: &a1\n- *a0\n- *a0\nx2: &a2\n- *a1\n- *a1\n"
                            + "conversations: [{id: c, vars: {v: *a2}, turns: [Hi]}]\n").utf8),
                    Data(
                        ("name: s\nconversations: [{id: c, turns: [{user: \"{{vars.x}}\", "
                            + "checks: [{type: regex, value: \"{{turn1.answer}}\"}]}], vars: {x: y}}]\n")
                            .utf8),
                    // Chained quotes: each turn quotes the previous one twice (the expansion limit's case).
                    Data(
                        ("name: chain\nconversations:\n  - id: c\n    vars: {x: \(String(repeating: "ab", count: 500))}\n    turns:\n"
                            + "      - \"{{vars.x}}\"\n"
                            + (2...8).map { "      - \"{{turn\($0 - 1).user}} {{turn\($0 - 1).user}} {{turn\($0 - 1).answer}}\"\n" }
                            .joined()).utf8),
                ]
        case .answers:
            return FuzzInputs.shippedSuites.flatMap { suite in
                suite.conversations.map { conversation in
                    let lines = conversation.script.userMessages.indices.map { index in
                        "{\"conversation\": \"\(conversation.id)\", \"turn\": \(index + 1), \"answer\": \"Paris, Lyon; 42 words.\", "
                            + "\"metrics\": {\"prompt_tokens\": 40, \"reused_tokens\": 10, \"generated_tokens\": 5, "
                            + "\"time_to_first_token\": 0.2, \"prefill_time\": 0.1, \"decode_time\": 0.2, \"total_time\": 0.4, "
                            + "\"inter_token_latencies\": [0.05, 0.05, 0.05, 0.05], \"stop_reason\": \"eog\"}}"
                    }
                    return Data(
                        (lines + [
                            "{\"conversation\": \"\(conversation.id)\", \"turn\": 1, "
                                + "\"failure\": {\"code\": \"timeout\", \"message\": \"slow\"}}"
                        ])
                        .joined(separator: "\n").utf8)
                }
            }
        case .project:
            return [
                Data(
                    ("model:\n  path: ${CHATEVAL_CACHE}/m.gguf\n  sha256: \(String(repeating: "a", count: 64))\nthreads: 2\n"
                        + "repetitions: 10\nsuites: [a, b]\n")
                        .utf8),
                Data(
                    ("compare:\n  preset: default\n  alpha: 0.01\n  thresholds:\n    ttft: {relative: 5%, absolute: 0.002}\n"
                        + "    peak-memory: {absolute: 8MiB}\n")
                        .utf8),
                Data("max_repetitions: 20\ntime_budget: 15m\ncompare: {busy_threshold: off}\n".utf8),
                Data("runtime:\n  extra_fields: {a: &a [1, 2], b: &b [*a, *a], c: [*b, *b]}\nthreads: 2\n".utf8),
            ]
        case .result:
            return [FuzzInputs.resultFile]
        case .journal:
            return [FuzzInputs.journalFile]
        case .index:
            return [FuzzInputs.indexFile]
        case .notes:
            return [FuzzInputs.noteText]
        case .multiIF:
            return FuzzInputs.importFixtures("multi-if")
        case .ifbench:
            return FuzzInputs.importFixtures("ifbench")
        case .bisectJournal:
            return [FuzzInputs.bisectJournalFile]
        case .promptfoo:
            return [
                Data(
                    ("description: d\nprompts:\n  - 'Tell me about {{topic}} in {{style}}'\n  - '[{\"role\": \"user\", "
                        + "\"content\": \"{{topic}}?\"}]'\ndefaultTest:\n  assert: [{type: not-icontains, value: AI}]\n"
                        + "tests:\n  - description: t\n    vars: {topic: [cats, dogs], style: &s [prose, verse]}\n"
                        + "    assert: [{type: icontains, value: '{{topic}}'}, {type: latency, threshold: 3000}]\n"
                        + "  - vars: {topic: bees, style: *s}\n").utf8),
                // Anchors and aliases: mutations reach the budget's walk and the product's arithmetic.
                Data(
                    ("prompts: ['{{x}}']\nl0: &l0 [a, a, a]\nl1: &l1 [*l0, *l0, *l0]\nl2: &l2 [*l1, *l1, *l1]\n"
                        + "tests: [{vars: {x: *l2}}, {vars: {x: [a, b], y: [c, d]}}]\n").utf8),
            ]
        }
    }
}

/// The file that holds the input in progress, rewritten before each input through one open
/// handle. Opening it again for each input (`Data.write(to:)`) made every input wait for the
/// previous one's data to reach the disk, as ext4 is read here (not traced): it starts writing a
/// file truncated and written again when it is closed, and a later truncation waits for that
/// write. A quiet smoke run of 30 CPU-s took 39.3 s of wall time so, and 34.3 s through one handle. A crash of this process leaves
/// what was written in the file all the same.
private final class InputInProgress {
    private let handle: FileHandle?

    init(_ file: URL) {
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        handle = try? FileHandle(forWritingTo: file)
    }

    func keep(_ input: Data) {
        try? handle?.truncate(atOffset: 0)
        try? handle?.write(contentsOf: input)
    }

    func close() { try? handle?.close() }
}
