import ChatEvalCompare
import ChatEvalCore
import ChatEvalGrading
import ChatEvalIndex
import ChatEvalRunner
import ChatEvalStore
import ChatEvalSuites
import Foundation

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
    /// runs it); `make fuzz` builds this target with libFuzzer instead. `--seconds` is CPU time,
    /// `--limit` the wall time one input may take.
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
                    FileHandle.standardError.write(
                        Data("usage: chateval-fuzz [--seconds CPU-S] [--seed N] [--limit WALL-S] | --seeds DIR\n".utf8))
                    exit(2)
                }
            }
            let outcome = MutationalFuzzer(seed: seed, seconds: seconds, limitPerInput: limit).run()
            exit(outcome ? 0 : 1)
        }
    }
#endif
