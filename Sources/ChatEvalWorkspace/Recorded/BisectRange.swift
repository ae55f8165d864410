import ChatEvalCompare
import ChatEvalCore
import ChatEvalGit
import ChatEvalLlama
import ChatEvalReport
import ChatEvalRunner
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// The commits a bisection measures, read through libgit2 (the working tree untouched): the
/// first-parent line from the good commit to the bad one, each commit that changes an input (the
/// project file or a suite) a state with its own suites and its own settings — its project file,
/// then the command line's overrides: model, template, context, threads, batch, cache mode — the
/// others folded into the state before them and named as skipped. A commit in the middle whose
/// suites or project file do not load is a state that cannot be measured (`BisectRevision.unmeasurable`),
/// skipped by the search as `git bisect skip` does; an end that does not load, or whose model
/// file is missing, is refused before the range is walked.
package struct BisectRange {
    package var states: [BisectState]
    package var skipped: [SkippedCommit]
    package var revisions: [BisectRevision]
    /// Each state's run configuration (nil for one that cannot be measured).
    package var configurations: [RunConfiguration?]
    /// The bad commit itself (the last state when it changed an input, else folded into it).
    package var bad: BisectState

    /// - `configure`: a commit's run configuration from its project file (nil when it has none),
    ///   with the command line applied.
    /// - `inputs`: the paths, relative to the repository root, whose change makes a commit worth
    ///   measuring; nil for every file (the runtime itself is built from the repository).
    package static func read(
        good: String, bad: String, repository: GitRepository, root: URL, inputs: [String]?, projectPath: String?,
        selection: SuiteSelection, configure: (ProjectFile?) throws -> RunConfiguration
    ) throws -> BisectRange {
        let (goodId, badId) = (try commit(good, repository), try commit(bad, repository))
        guard goodId != badId else { throw failure("\(good) and \(bad) are the same commit: there is nothing between them", .badInput) }
        // Both ends first, from their own trees, before the walk whose diffs cost time on a long
        // range: an end that cannot be measured is refused at once. (The bad end replays what
        // the last commit changing an input replays: the commits after it change none.)
        var ends: [String: (BisectRevision, RunConfiguration)] = [:]  // by commit: the walk below reuses them
        for (id, end) in [(goodId, "\(good) (the good end)"), (badId, "\(bad) (the bad end)")] {
            do {
                let state = BisectState(commit: id, shortId: String(id.prefix(7)), subject: "")
                let loaded = try revision(
                    state, repository: repository, root: root, projectPath: projectPath, selection: selection, configure: configure)
                let model = loaded.1.primary.modelPath
                if inputs != nil, !FileManager.default.fileExists(atPath: model) {
                    throw failure("its model \(model) does not exist", .badInput)
                }
                ends[id] = loaded
            } catch {
                throw failure("\(end) cannot be measured: \(Self.firstLine(error)); bisect from commits whose suites load", .badInput)
            }
        }
        let walk: FirstParentWalk
        do {
            walk = try repository.firstParentWalk(from: badId, since: goodId)
        } catch {
            throw failure(
                "\(good) is not on the first-parent line of \(bad) (\(error)); bisect walks from an older commit to a newer one", .badInput)
        }
        if walk.endsAtShallowCut {
            throw failure("this shallow clone does not reach \(good) from \(bad); fetch the rest with `git fetch --unshallow`", .badInput)
        }
        let newest = walk.commits.first
        var range = BisectRange(
            states: [], skipped: [], revisions: [], configurations: [],
            bad: BisectState(commit: badId, shortId: newest?.shortId ?? bad, subject: newest?.subject ?? ""))
        let changedInputs = try range.appendStates(walk, repository: repository, inputs: inputs)
        for (index, state) in range.states.enumerated() {
            do {
                let (revision, configuration) =
                    try ends[state.commit]
                    ?? self.revision(
                        state, repository: repository, root: root, projectPath: projectPath, selection: selection, configure: configure)
                range.revisions.append(revision)
                range.configurations.append(configuration)
            } catch {
                // Only the ends must load: a commit between them that does not is passed over.
                let end = index == 0 ? "\(good) (the good end)" : index == range.states.count - 1 ? "\(bad) (the bad end)" : nil
                let reason = Self.firstLine(error)
                if let end { throw failure("\(end) cannot be measured: \(reason); bisect from commits whose suites load", .badInput) }
                range.revisions.append(
                    BisectRevision(
                        commit: state.commit,
                        plan: RunPlan(
                            suites: [],
                            settings: RunSettings(
                                cacheMode: .session, repetitions: 1,
                                warmupConversations: 0)),
                        git: try? repository.snapshot(ofCommit: state.commit), project: nil,
                        unmeasurable: "it does not load: \(reason)"))
                range.configurations.append(nil)
            }
        }
        if inputs != nil { range.foldUnchangedWork(changedInputs) }
        return range
    }

    /// Appends the walk's commits, oldest first: each that changes an input a state, the others
    /// folded into the state before it. Returns each state's changed inputs.
    private mutating func appendStates(_ walk: FirstParentWalk, repository: GitRepository, inputs: [String]?) throws -> [[String]] {
        var changedInputs: [[String]] = []
        for summary in walk.commits.reversed() {
            let changed = try inputs.map { try repository.changedPaths($0, in: summary.id) } ?? repository.changedFiles(in: summary.id)
            if !states.isEmpty, changed.isEmpty {
                let files = (try? repository.changedFiles(in: summary.id)) ?? []
                let passed = SkippedCommit(
                    shortId: summary.shortId, subject: summary.subject,
                    reason: "changes no input" + (files.isEmpty ? "" : " (only \(Self.listed(files)))"))
                skipped.append(passed)
                states[states.count - 1].folded.append(passed)
                continue
            }
            states.append(BisectState(commit: summary.id, shortId: summary.shortId, subject: summary.subject))
            changedInputs.append(changed)
        }
        return changedInputs
    }

    /// Folds each state whose inputs changed but whose replayed work did not — the same runtime
    /// settings, run settings and suites as parsed (`Suite.replayed`: a comment, quoting or layout
    /// edit) — into the state before it, named as skipped: it replays what that state replays,
    /// so a probe of it could only measure the machine's noise (and, on a busy runner, spend
    /// every repetition failing to tell two equal things apart). Only with the inputs known:
    /// with `--serve` the runtime itself is built from the commit.
    mutating func foldUnchangedWork(_ changedInputs: [[String]]) {
        var changedInputs = changedInputs  // kept in step with `states` as they fold
        func work(_ index: Int) -> ReplayedWork? {
            configurations[index].map {
                // An end was read under its first seven hex digits; the others under git's short id.
                ReplayedWork(revisions[index], $0, labels: [states[index].shortId, String(states[index].commit.prefix(7))])
            }
        }
        var index = 1
        var previous = states.isEmpty ? nil : work(0)
        while index < states.count {
            let current = work(index)
            guard let current, current == previous else {
                previous = current
                index += 1
                continue
            }
            let files = changedInputs[index]
            let folded = SkippedCommit(
                shortId: states[index].shortId, subject: states[index].subject,
                reason: "changes no replayed work (its edit of \(Self.listed(files)) leaves the suites and settings as parsed unchanged)")
            states[index - 1].folded += [folded] + states[index].folded
            states.remove(at: index)
            revisions.remove(at: index)
            configurations.remove(at: index)
            changedInputs.remove(at: index)
        }
        skipped = states.flatMap(\.folded)  // in commit order, as the walk listed them
    }

    /// Up to three of a commit's changed files: "a.yaml, b.yaml, c.yaml, …".
    private static func listed(_ files: [String]) -> String {
        files.prefix(3).joined(separator: ", ") + (files.count > 3 ? ", …" : "")
    }

    /// What a state replays, as far as a measurement can tell: the runtime's settings, the run's
    /// and the suites as parsed. Equal work replays the same prompts the same way.
    struct ReplayedWork: Equatable {
        /// The model with its expected digest, which the runtime's configuration leaves out.
        var model: RunConfiguration.ModelVariant
        var runtime: LlamaChatRuntime.Configuration
        var settings: RunSettings
        var suites: [Suite]

        /// - `labels`: what `CommitTree` may have put before each suite's path for the commit.
        init(_ revision: BisectRevision, _ configuration: RunConfiguration, labels: [String]) {
            model = configuration.primary
            runtime = configuration.runtimeConfiguration(configuration.primary)
            settings = revision.plan.settings
            suites = revision.plan.suites.map { suite in
                var replayed = suite.replayed
                if let label = labels.first(where: { replayed.path.hasPrefix($0 + ":") }) { replayed.path.removeFirst(label.count + 1) }
                return replayed
            }
        }
    }

    /// An error's first line, without the "chateval: error:" framing a failure may carry.
    static func firstLine(_ error: any Error) -> String {
        let text = (error as? CommandFailure)?.message ?? String(describing: error)
        return Terminal.safe(String(text.split(separator: "\n", omittingEmptySubsequences: true).first ?? "unknown error"))
    }

    private static func commit(_ revision: String, _ repository: GitRepository) throws -> String {
        do { return try repository.resolveCommit(revision) } catch { throw failure("\(revision): \(error)", .badInput) }
    }

    /// The commit's suites and settings, from its own project file and suite files.
    private static func revision(
        _ state: BisectState, repository: GitRepository, root: URL, projectPath: String?, selection: SuiteSelection,
        configure: (ProjectFile?) throws -> RunConfiguration
    ) throws -> (BisectRevision, RunConfiguration) {
        let tree = CommitTree(repository: repository, commit: state.commit, label: state.shortId, root: root)
        let project = try projectPath.flatMap { try tree.projectFile(at: $0) }
        let configuration = try configure(project)
        guard configuration.variants.count == 1 else {
            throw failure(
                "its project file lists \(configuration.variants.count) models; bisect replays one model a commit (name it with --model)",
                .badInput)
        }
        let suites = try SuiteFiles.select(try tree.suites(configuration.suitePaths, quiet: true), selection)
        let snapshot = try? repository.snapshot(ofCommit: state.commit)
        let revision = BisectRevision(
            commit: state.commit, plan: RunPlan(suites: suites, settings: configuration.settings(selection: selection)), git: snapshot,
            project: Workspace.record(of: project), settings: configuration.settingsWords)
        return (revision, configuration)
    }
}
