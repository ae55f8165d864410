// What tests share with the benches (running programs, a local llama-server, synthetic
// histories) lives in ChatEvalToolKit, which links no test framework; tests get it through here.
@_exported import ChatEvalToolKit
