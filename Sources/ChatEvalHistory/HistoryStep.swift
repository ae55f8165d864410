import ChatEvalCore
import ChatEvalStore
import Foundation

/// A step of a series: the level changed at `suspect`, or — when commits before it have no
/// results — somewhere from `suspect` to `firstMeasured`.
public struct HistoryStep: Codable, Sendable {
    /// The first commit that may have caused the step: the one after the last commit measured
    /// at the old level.
    public var suspect: String
    public var suspectPosition: Int
    /// The first commit measured at the new level (the same as `suspect` without gaps).
    public var firstMeasured: String
    public var firstMeasuredPosition: Int
    /// Medians of the segments before and after.
    public var before: Double
    public var after: Double
    /// The change between the segments divided by `before`, with its interval divided alike; nil
    /// when before is 0. For times and rates the shift (Hodges-Lehmann, the median of the
    /// pairwise differences, with Moses' interval); for the pass rate, which takes a few levels,
    /// the difference of the segments' means (bootstrap interval). One estimate gives the change,
    /// its interval and `isWorse`: segment medians can move while the typical pairwise difference
    /// does not (tie-heavy series), and a step reported one way by one estimate and the other way
    /// by another would be a lie either way.
    public var change: Double?
    public var changeLower: Double?
    public var changeUpper: Double?
    /// The rank test between the two segments, and the permutation test of the split.
    public var pValue: Double
    public var splitPValue: Double
    /// Worse given the metric's polarity: the side of the shift estimate (of its interval, when
    /// the estimate is 0).
    public var isWorse: Bool
    /// The commits from `suspect` to `firstMeasured`, each with the run inputs it changed (suite
    /// files, the project file); nil when not looked up. A commit that changed no input cannot
    /// have caused the step through the repository.
    public var suspects: [StepSuspect]?

    /// The suspects that changed an input: the ones that can have caused the step.
    public var inputSuspects: [StepSuspect] { (suspects ?? []).filter { !$0.changedInputs.isEmpty } }
}
