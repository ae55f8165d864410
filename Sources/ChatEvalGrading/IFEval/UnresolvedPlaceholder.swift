/// Stands in for an instruction whose regex argument still holds a `{{…}}` placeholder: only
/// built by `CheckCatalogue.validate`, whose checks are never evaluated.
struct UnresolvedPlaceholder: IFEvalInstruction {
    func check(_ value: Scalars) throws(IFEvalEvaluationError) -> IFEvalResult {
        throw IFEvalEvaluationError(message: "an argument still contains an unresolved {{…}} placeholder")
    }
}
