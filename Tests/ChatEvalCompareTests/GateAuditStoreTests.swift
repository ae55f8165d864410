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
