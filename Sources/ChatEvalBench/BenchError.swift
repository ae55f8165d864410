import ArgumentParser
import ChatEvalCore
import ChatEvalLlama
import ChatEvalReport
import ChatEvalRuntime
import ChatEvalStore

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
