import ChatEvalCore
import ChatEvalStore
import Foundation

/// A git command that failed while a synthetic history was written.
struct SyntheticHistoryError: Error, CustomStringConvertible {
    let description: String
}
