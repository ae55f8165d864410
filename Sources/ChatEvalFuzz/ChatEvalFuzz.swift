import ChatEvalCore
import ChatEvalGrading
import ChatEvalRunner
import ChatEvalSuites
import Foundation

/// What a fuzz input is fed to: everything that reads text a user or a model controls.
enum FuzzTarget: String, CaseIterable {
    /// A suite file: loaded, validated, and when valid every check built and run on an answer.
    case suite
    /// An answers file, read and graded against every shipped suite.
    case answers
    /// A project file (chateval.yaml).
    case project

    /// Feeds `data` to the target. Any outcome but a crash or a hang is fine: errors are the
    /// expected answer to most inputs.
    func exercise(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        switch self {
        case .suite:
            guard let suite = try? SuiteLoader.parse(text, file: "fuzz.yaml") else { return }
            // The suite is valid: grade a made-up replay of it, placeholders filled from the input.
            for conversation in suite.conversations {
                let turns = conversation.script.userMessages.indices.map { index in
                    ReplayedTurn(index: index, user: text.prefix(200).description, messagesSent: 2, status: .answered,
                                 answer: String(text.suffix(300)), metrics: FuzzInputs.metrics)
                }
                _ = ConversationGrader.grade(conversation, turns: turns)
            }
        case .answers:
            for suite in FuzzInputs.shippedSuites {
                guard let lines = try? AnswerGrader.parse(text, file: "fuzz.jsonl", for: suite) else { continue }
                _ = AnswerGrader.grade(suite, answers: lines)
            }
        case .project:
            _ = try? ProjectFile.parse(text, source: "chateval.yaml", environment: ["HOME": "/home/fuzz", "CHATEVAL_CACHE": "/cache"])
        }
    }
}

/// Fixed material the targets use.
enum FuzzInputs {
    /// The suites shipped in `suites/`, found from the current folder or the package root.
    static let shippedSuites: [Suite] = {
        let folder = ["suites", URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../suites").path]
            .first { FileManager.default.fileExists(atPath: $0) } ?? "suites"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".yaml") }.sorted()
        return names.compactMap { try? SuiteLoader.load(path: folder + "/" + $0) }
    }()

    static let metrics = TurnMetrics(
        promptTokens: 120, reusedTokens: 80, generatedTokens: 12, timeToFirstToken: 0.2, prefillTime: 0.1, decodeTime: 0.3,
        totalTime: 0.5, interTokenLatencies: Array(repeating: 0.03, count: 11), stopReason: .endOfGeneration, peakResidentBytes: 250 << 20)
}

#if CHATEVAL_LIBFUZZER
/// libFuzzer's driver (`make fuzz`). SwiftPM makes an executable's `main` the module's
/// `ChatEvalFuzz_main`, so that symbol hands the command line to libFuzzer, which then calls
/// `fuzzOneInput` for every input; the target comes from CHATEVAL_FUZZ_TARGET.
@_silgen_name("LLVMFuzzerRunDriver")
private func runLibFuzzer(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

@_cdecl("ChatEvalFuzz_main")
func libFuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return runLibFuzzer(&count, &arguments) { start, length in
        let target = ProcessInfo.processInfo.environment["CHATEVAL_FUZZ_TARGET"].flatMap(FuzzTarget.init(rawValue:)) ?? .suite
        target.exercise(start.map { Data(bytes: $0, count: length) } ?? Data())
        return 0
    }
}
#else
/// `chateval-fuzz`: a bounded, reproducible mutational fuzzer over the same targets (`make test`
/// runs it); `make fuzz` builds this target with libFuzzer instead.
@main
struct ChatEvalFuzz {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        var seconds = 60.0, seed: UInt64 = 1, limit = 5.0
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--seconds": seconds = iterator.next().flatMap(Double.init) ?? seconds
            case "--seed": seed = iterator.next().flatMap(UInt64.init) ?? seed
            case "--limit": limit = iterator.next().flatMap(Double.init) ?? limit
            case "--seeds":
                // Writes the seed inputs as a corpus for libFuzzer: DIR/<target>/<n>.
                guard let folder = iterator.next() else { break }
                for target in FuzzTarget.allCases {
                    let directory = URL(fileURLWithPath: folder).appendingPathComponent(target.rawValue)
                    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                    for (index, data) in MutationalFuzzer.seeds(for: target).enumerated() {
                        try? data.write(to: directory.appendingPathComponent("seed-\(index)"))
                    }
                }
                return
            default:
                FileHandle.standardError.write(Data("usage: chateval-fuzz [--seconds S] [--seed N] [--limit S] | --seeds DIR\n".utf8))
                exit(2)
            }
        }
        let outcome = MutationalFuzzer(seed: seed, seconds: seconds, limitPerInput: limit).run()
        exit(outcome ? 0 : 1)
    }
}
#endif
