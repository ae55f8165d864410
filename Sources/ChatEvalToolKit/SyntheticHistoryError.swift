import ChatEvalCore
import ChatEvalStore
import Foundation

struct SyntheticHistoryError: Error, CustomStringConvertible {
    let description: String
}
