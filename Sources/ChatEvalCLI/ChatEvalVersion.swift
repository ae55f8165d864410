import ArgumentParser
import ChatEvalGit
import ChatEvalLlama

/// What `chateval --version` prints: ChatEval's version and the native libraries it runs on.
enum ChatEvalVersion {
    /// ChatEval's own version (semantic versioning; raised with each tagged release).
    static let number = "0.1.0"

    static var description: String {
        let build = EngineBuild.currentName.map { "\($0), " } ?? ""
        return "chateval \(number) (llama.cpp: \(build)\(llamaLibraryVersion); libgit2 \(libgit2Version))"
    }
}
