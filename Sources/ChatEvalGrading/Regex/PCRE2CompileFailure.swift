internal import CPCRE2
import Synchronization

/// `pcre2_compile_32` refused a pattern: its error, and the code unit it stopped at.
struct PCRE2CompileFailure: Error {
    let error: PCRE2Error
    let offset: Int
}
