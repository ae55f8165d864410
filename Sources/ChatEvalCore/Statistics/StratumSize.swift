import Foundation
import Synchronization

/// The size of one stratum: values on each side.
struct StratumSize: Hashable {
    var base: Int
    var head: Int
}
