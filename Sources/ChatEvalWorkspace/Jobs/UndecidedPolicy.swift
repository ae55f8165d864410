/// How a comparison that could not decide everything ends (`--undecided`).
package enum UndecidedPolicy: String, CaseIterable, Sendable {
    case pass, fail
}
