import ChatEvalStore
import Foundation

extension RunRecord {
    /// How the reports name this run's model: its group's label in a side-by-side run (the file
    /// name, with the chat template or context size where the models differ in them), else the
    /// model file's name.
    var modelLabel: String {
        group?.label ?? URL(fileURLWithPath: runtime.model.path).lastPathComponent
    }
}
