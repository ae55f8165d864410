import ChatEvalCompare
import ChatEvalCore
import ChatEvalStore
import Foundation
import Testing

/// Where `calibrate` keeps its audits: one file per machine class and model, read back only for
/// runs of that class and model.
@Suite struct GateAuditStoreTests {
    private func audit(machine: String, modelSha256: String?) -> GateAudit {
        GateAudit.measure(
            [], design: .fixed(10), settings: .default, machine: machine, modelSha256: modelSha256, model: "m.gguf", commit: nil)
    }

    @Test func anAuditSavedForAMachineAndModelIsReadBackOnlyForRunsOfThem() throws {
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("gate-audits-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: reports) }
        let record = RecordBuilder(cpu: "EPYC", modelSha: "abc").record
        let machine = record.machine.performanceClass
        let url = GateAuditStore.url(machine: machine, modelSha256: "abc", model: record.runtime.model.path, reports: reports)
        #expect(url == GateAuditStore.url(for: record, reports: reports))
        #expect(url.deletingLastPathComponent().standardizedFileURL == GateAuditStore.folder(reports: reports).standardizedFileURL)
        #expect(GateAuditStore.load(for: record, reports: reports) == nil, "nothing saved yet")

        try GateAuditStore.save(audit(machine: machine, modelSha256: "abc"), to: url)
        #expect(GateAuditStore.load(for: record, reports: reports)?.machine == machine)
        // Another machine class or another model: another file, none there.
        #expect(GateAuditStore.load(for: RecordBuilder(cpu: "Xeon", modelSha: "abc").record, reports: reports) == nil)
        #expect(GateAuditStore.load(for: RecordBuilder(cpu: "EPYC", modelSha: "def").record, reports: reports) == nil)
        // A file of another machine class at this one's path is not taken for it.
        try GateAuditStore.save(audit(machine: "another", modelSha256: "abc"), to: url)
        #expect(GateAuditStore.load(for: record, reports: reports) == nil)
    }
}

/// The calibration is read from a folder others may write to: it was read whole, without a bound
/// (issue 47). One past its bound or not a regular file is refused before it is read, one holding
/// what no calibration measures after, each with the reason the comparison's warning gives.
@Suite struct GateAuditBoundsTests {
    private func place() throws -> (record: RunRecord, url: URL, reports: String) {
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("gate-audit-bounds-\(UUID().uuidString)").path
        let record = RecordBuilder(cpu: "EPYC", modelSha: "abc").record
        let url = GateAuditStore.url(for: record, reports: reports)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        return (record, url, reports)
    }

    @Test func aCalibrationPastItsBoundIsRefusedUnread() throws {
        let (record, url, reports) = try place()
        defer { try? FileManager.default.removeItem(atPath: reports) }
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 64 << 20)  // sparse: refused by its size, never read
        try handle.close()
        let (audit, problem) = GateAuditStore.read(for: record, reports: reports)
        #expect(audit == nil)
        #expect(problem?.contains("\(url.path) is 64 MiB; calibrations are read up to 4.0 MiB") == true, "\(problem ?? "")")
        #expect(problem?.contains("`chateval calibrate` measures it again") == true)
    }

    @Test func aFIFOInPlaceOfTheCalibrationIsRefusedWithoutBlocking() throws {
        let (record, url, reports) = try place()
        defer { try? FileManager.default.removeItem(atPath: reports) }
        try #require(mkfifo(url.path, 0o644) == 0)
        let (audit, problem) = GateAuditStore.read(for: record, reports: reports)
        #expect(audit == nil)
        #expect(problem?.contains("is not a regular file") == true, "\(problem ?? "")")
    }

    @Test func aCalibrationHoldingWhatNoCalibrationMeasuresIsRefused() throws {
        let (record, url, reports) = try place()
        defer { try? FileManager.default.removeItem(atPath: reports) }
        var audit = GateAudit.measure(
            [], design: .fixed(10), settings: .default, machine: record.machine.performanceClass, modelSha256: "abc", model: "m.gguf",
            commit: nil)
        try GateAuditStore.save(audit, to: url)
        #expect(GateAuditStore.read(for: record, reports: reports).problem == nil, "what calibrate writes is read")
        #expect(GateAuditStore.read(for: record, reports: reports).audit != nil)
        audit.comparisons = Int.max
        try GateAuditStore.save(audit, to: url)
        let (read, problem) = GateAuditStore.read(for: record, reports: reports)
        #expect(read == nil)
        #expect(
            problem?.contains("is not one this ChatEval can trust (comparisons: \(Int.max) is not 0 to 1000)") == true, "\(problem ?? "")")
    }
}
