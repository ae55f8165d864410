import ChatEvalCore

/// What a commit changed of some paths: the view of a repository that naming a step's suspects
/// needs (GitRepository conforms in ChatEvalWorkspace; ChatEvalHistory does not import ChatEvalGit).
public protocol ChangedPaths {
    /// Which of `paths` (files or folders, relative to the repository root) `commit` changed
    /// against its first parent (all of them present, for a root commit). Throws when the commit
    /// or its parent cannot be read.
    func changedPaths(_ paths: [String], in commit: String) throws -> [String]
}

extension History {
    /// Each step's commits from its suspect to its first measured commit, with the `inputs` each
    /// changed (asked of `repository` once per commit). A commit that cannot be read (a shallow
    /// clone's missing parent) gives one warning, returned, and a step whose range holds one gets
    /// no suspects: what that commit changed is unknown, so neither it nor "outside the
    /// repository" can be ruled out.
    public mutating func lookUpSuspects(in repository: some ChangedPaths, inputs: [String]) -> [String] {
        var warnings: [String] = []
        var cache: [String: [String]?] = [:]  // nil: could not be read
        func changed(_ position: Int) -> [String]? {
            let id = commits[position].id
            if let known = cache[id] { return known }
            do {
                cache[id] = try repository.changedPaths(inputs, in: id)
            } catch {
                warnings.append("could not read what \(commits[position].shortId) changed: \(error)")
                cache[id] = .some(nil)
            }
            return cache[id] ?? nil
        }
        for seriesIndex in series.indices {
            for step in series[seriesIndex].steps.indices {
                let range = series[seriesIndex].steps[step]
                guard range.suspectPosition <= range.firstMeasuredPosition, range.firstMeasuredPosition < commits.count else { continue }
                let positions = range.suspectPosition...range.firstMeasuredPosition
                let changes = positions.map(changed)
                guard !changes.contains(where: { $0 == nil }) else { continue }
                series[seriesIndex].steps[step].suspects = zip(positions, changes).map {
                    StepSuspect(commit: commits[$0].id, changedInputs: $1 ?? [])
                }
            }
        }
        return warnings
    }
}
