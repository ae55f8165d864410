import Testing

extension Tag {
    /// Tests that load a shipped model (CHATEVAL_MODEL, CHATEVAL_GEMMA_MODEL): slower, and only
    /// meaningful after `make test` fetched the models. Their suites also carry "RealModel" in
    /// their names, so that `swift test --skip RealModel` leaves them all out.
    @Tag public static var realModel: Self
}
