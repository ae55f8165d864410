import ChatEvalCore
import ChatEvalStore
import Foundation

/// Where `chateval calibrate` keeps what it measured: one JSON file per machine class and model
/// under `<reports>/.chateval/calibration/`, named by a digest of the two.
public enum GateAuditStore {
    /// The folder of every calibration under the reports folder `reports`.
    public static func folder(reports: String) -> URL {
        URL(fileURLWithPath: reports).appendingPathComponent(".chateval/calibration", isDirectory: true)
    }

    /// The file for runs of `record`'s machine class and model.
    public static func url(for record: RunRecord, reports: String) -> URL {
        url(machine: record.machine.performanceClass, modelSha256: record.modelSha256, model: record.runtime.model.path, reports: reports)
    }

    /// The file for runs of machine class `machine` and the model `modelSha256` names (else the file name of `model`).
    public static func url(machine: String, modelSha256: String?, model: String, reports: String) -> URL {
        let key = FileDigest.sha256(of: Data("\(machine)\n\(modelSha256 ?? URL(fileURLWithPath: model).lastPathComponent)".utf8))
        return folder(reports: reports).appendingPathComponent("gate-\(key.prefix(16)).json")
    }

    /// The calibration of this record's machine class and model, when there is a readable one.
    public static func load(for record: RunRecord, reports: String) -> GateAudit? {
        read(for: record, reports: reports).audit
    }

    /// Largest calibration file read: one holds a few hundred bytes per suite and metric.
    public static let maximumFileBytes = 4 << 20

    /// As `load`, with why a calibration that is there was not used: a file past
    /// `maximumFileBytes` or not a regular file (judged before anything is read: the folder is
    /// one others may write to), or one holding what no calibration measures (`problems`).
    public static func read(for record: RunRecord, reports: String) -> (audit: GateAudit?, problem: String?) {
        let path = url(for: record, reports: reports).path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return (nil, nil) }
        let refused = { (why: String) in "the calibration \(path) \(why); `chateval calibrate` measures it again" }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { return (nil, refused("is not a regular file")) }
        if let size = FileContents.size(atPath: path, over: maximumFileBytes) {
            return (nil, refused("is \(ByteCount.format(size)); calibrations are read up to \(ByteCount.format(maximumFileBytes))"))
        }
        guard let data = FileContents.read(atPath: path), let audit = try? ResultWriter.makeDecoder().decode(GateAudit.self, from: data),
            audit.schemaVersion == GateAudit.currentSchemaVersion
        else { return (nil, nil) }
        if let problem = audit.problems.first { return (nil, refused("is not one this ChatEval can trust (\(problem))")) }
        return audit.machine == record.machine.performanceClass ? (audit, nil) : (nil, nil)
    }

    /// Writes `audit` to `url` atomically, creating its folder.
    public static func save(_ audit: GateAudit, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let data = try ResultWriter.makeEncoder(pretty: true).encode(audit)
        try AtomicFile.write(data, to: url)
    }
}

extension GateAudit {
    /// What a calibration read from disk holds that `calibrate` never measures, each "field: why":
    /// counts outside what its options allow, rates and spreads that are not finite numbers.
    public var problems: [String] {
        var problems: [String] = []
        if !(0...1000).contains(comparisons) { problems.append("comparisons: \(comparisons) is not 0 to 1000") }
        for (name, count) in [("false_alarms", falseAlarms), ("decided", decided)] where !(0...max(comparisons, 0)).contains(count) {
            problems.append("\(name): \(count) is not 0 to the \(comparisons) comparisons")
        }
        if looks.isEmpty || looks.count > 10_000 || looks.contains(where: { !(1...10_000).contains($0) }) {
            problems.append("looks: not 1 to 10000 looks of 1 to 10000 repetitions")
        }
        if repetitionsUsed.count > 1000 || repetitionsUsed.contains(where: { !(0...10_000).contains($0) }) {
            problems.append("repetitions_used: not up to 1000 counts of 0 to 10000 repetitions")
        }
        if !(familyErrorRate > 0 && familyErrorRate < 1) { problems.append("family_error_rate: \(familyErrorRate) is not between 0 and 1") }
        if replaysLeftOut < 0 || replaysMeasured < 0 { problems.append("replays_left_out, replays_measured: a negative count") }
        for (index, noise) in metrics.enumerated() {
            if !noise.spread.isFinite || noise.spread < 0 || !noise.detectable.isFinite || !(1...1_000_000).contains(noise.strata)
                || !(0...max(comparisons, 0)).contains(noise.falseAlarms)
            {
                problems.append("metrics[\(index)]: a spread, change, stratum count or false-alarm count no calibration measures")
            }
        }
        return problems
    }
}
