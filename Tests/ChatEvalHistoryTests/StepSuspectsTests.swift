import ChatEvalCore
import ChatEvalHistory
import ChatEvalTestKit
import Testing

/// Naming a step's suspects through `ChangedPaths`: each commit of the step's range asked once,
/// with the run's inputs, and a range holding an unreadable commit left without suspects.
@Suite struct StepSuspectsTests {
    /// A repository of scripted changes that records what it was asked.
    final class ScriptedChanges: ChangedPaths {
        var changes: [String: [String]]
        var unreadable: Set<String>
        private(set) var asked: [(commit: String, paths: [String])] = []

        init(changes: [String: [String]] = [:], unreadable: Set<String> = []) {
            self.changes = changes
            self.unreadable = unreadable
        }

        struct Unreadable: Error, CustomStringConvertible {
            var description: String { "object not found" }
        }

        func changedPaths(_ paths: [String], in commit: String) throws -> [String] {
            asked.append((commit, paths))
            if unreadable.contains(commit) { throw Unreadable() }
            return (changes[commit] ?? []).filter { paths.contains($0) }
        }
    }

    /// Commits 0..<60 with no results at 37...41 and TTFT stepping up at 40: one step, suspect 37,
    /// first measured 42.
    static func gappedHistory() -> History {
        HistoryBuilder.build(
            commits: HistoryBuilderTests.commits(60), runs: HistoryBuilderTests.runs(60, stepAt: 40, seed: 4, skip: [37, 38, 39, 40, 41]),
            metrics: [.metric(.timeToFirstToken)])
    }

    @Test func everyCommitOfTheRangeIsAskedOnceWithTheInputsAndNamedWithWhatItChanged() throws {
        var history = Self.gappedHistory()
        let repository = ScriptedChanges(changes: [
            SyntheticRuns.commitID(39): ["suites/memory.yaml", "Sources/x.swift"], SyntheticRuns.commitID(42): ["chateval.yaml"],
        ])
        let inputs = ["chateval.yaml", "suites/memory.yaml"]
        let warnings = history.lookUpSuspects(in: repository, inputs: inputs)
        #expect(warnings.isEmpty)
        #expect(repository.asked.map(\.commit) == (37...42).map(SyntheticRuns.commitID))
        #expect(repository.asked.allSatisfy { $0.paths == inputs })
        let step = try #require(history.series.first?.steps.first)
        #expect(
            step.suspects
                == (37...42).map {
                    StepSuspect(
                        commit: SyntheticRuns.commitID($0),
                        changedInputs: $0 == 39 ? ["suites/memory.yaml"] : $0 == 42 ? ["chateval.yaml"] : [])
                })
        #expect(step.inputSuspects.map(\.commit) == [SyntheticRuns.commitID(39), SyntheticRuns.commitID(42)])
    }

    @Test func anUnreadableCommitWarnsOnceAndLeavesItsStepWithoutSuspects() throws {
        var history = Self.gappedHistory()
        let unreadable = SyntheticRuns.commitID(38)
        let repository = ScriptedChanges(unreadable: [unreadable])
        let warnings = history.lookUpSuspects(in: repository, inputs: ["suites"])
        #expect(warnings == ["could not read what \(unreadable.prefix(7)) changed: object not found"])
        #expect(history.series.first?.steps.first?.suspects == nil)
        #expect(repository.asked.filter { $0.commit == unreadable }.count == 1)
    }
}
