import ChatEvalStore

extension RunReport {
    /// For records of a run under load, as many levels as the run asked for (each level is one
    /// record); nil for records of no load run.
    public static func loadLevels(of records: [RunRecord]) -> Int? {
        records.contains { $0.load != nil } ? Set(records.compactMap { $0.load?.concurrency }).count : nil
    }

    /// The terminal report of a run's records: the run report (models side by side), and under
    /// load (`levels`: how many concurrency levels were asked for; nil for a run not under load)
    /// the levels' table (one per model); a sweep shows only the tables, its levels being the same
    /// suites at other loads. `chateval run` and `chateval report` print it.
    public static func render(_ records: [RunRecord], options: RunReportOptions, loadLevels levels: Int?) -> String {
        guard let levels else { return "\n" + render(records, options: options) }
        var text = levels == 1 ? "\n" + render(records, options: options) + "\n" : ""
        var models: [(label: String?, summaries: [LoadSummary])] = []
        for record in records {
            guard let summary = record.load else { continue }
            if let last = models.last, last.label == record.group?.label {
                models[models.count - 1].summaries.append(summary)
            } else {
                models.append((record.group?.label, [summary]))
            }
        }
        for model in models {
            text += "\n" + (model.label.map { "\($0)\n" } ?? "") + LoadReport.table(model.summaries) + "\n"
        }
        return text
    }
}
