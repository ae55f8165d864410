internal import CCurl
import Foundation
import Synchronization

/// One libcurl easy handle: the one owner of a `CURL *`, cleaned up when it goes. Kept and reused
/// by a pool so that its live connection (keep-alive) serves the next request to the same server.
final class CurlHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?

    /// libcurl loaded (on the first handle, not at start-up: see CCurl) and initialised, once per
    /// process; or why not.
    private static let global: HTTPTransportError? = {
        if let reason = ccurl_load().map({ String(cString: $0) }) {
            return HTTPTransportError(
                kind: .libraryUnavailable, call: "dlopen(\(CCURL_LIBRARY))", code: 0,
                message: "libcurl could not be loaded (\(reason)); the served runtime needs it: apt-get install libcurl4")
        }
        guard ccurl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK else {
            return HTTPTransportError(kind: .setup, call: "curl_global_init", code: 0, message: "libcurl could not be initialised")
        }
        return nil
    }()

    /// Loads libcurl now (once per process), or throws `libraryUnavailable` saying why.
    static func loadLibrary() throws(HTTPTransportError) {
        if let failure = Self.global { throw failure }
    }

    init() throws(HTTPTransportError) {
        try Self.loadLibrary()
        guard let pointer = ccurl_easy_init() else {
            throw HTTPTransportError(kind: .setup, call: "curl_easy_init", code: 0, message: "libcurl could not create a transfer")
        }
        self.pointer = pointer
    }

    deinit {
        ccurl_slist_free_all(headerList)
        ccurl_easy_cleanup(pointer)
    }

    /// Back to defaults for a new request; the connection cache stays.
    func reset() {
        ccurl_easy_reset(pointer)
        ccurl_slist_free_all(headerList)
        headerList = nil
    }

    func set(_ option: CURLoption, _ value: Int, _ name: String) throws(HTTPTransportError) {
        try check(ccurl_set_long(pointer, option, value), "curl_easy_setopt(\(name))")
    }

    func set(_ option: CURLoption, offset value: Int, _ name: String) throws(HTTPTransportError) {
        try check(ccurl_set_offset(pointer, option, curl_off_t(value)), "curl_easy_setopt(\(name))")
    }

    func set(_ option: CURLoption, _ value: String, _ name: String) throws(HTTPTransportError) {
        // libcurl copies strings it is given (since 7.17), so the C string may go after the call.
        try check(value.withCString { ccurl_set_string(pointer, option, $0) }, "curl_easy_setopt(\(name))")
    }

    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?, _ name: String) throws(HTTPTransportError) {
        try check(ccurl_set_pointer(pointer, option, value), "curl_easy_setopt(\(name))")
    }

    /// The request body, copied by libcurl (CURLOPT_COPYPOSTFIELDS): it may go after the call.
    func setCopyingBody(_ body: Data) throws(HTTPTransportError) {
        var bytes = [UInt8](body)
        if bytes.isEmpty { bytes = [0] }  // a valid pointer for an empty body; its size (set before) says 0
        let code = bytes.withUnsafeMutableBytes { ccurl_set_pointer(pointer, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
        try check(code, "curl_easy_setopt(CURLOPT_COPYPOSTFIELDS)")
    }

    func setHeaders(_ headers: [(name: String, value: String)]) throws(HTTPTransportError) {
        for header in headers {
            guard let appended = ccurl_slist_append(headerList, "\(header.name): \(header.value)") else {
                throw HTTPTransportError(
                    kind: .setup, call: "curl_slist_append", code: 0, message: "libcurl could not hold the request headers")
            }
            headerList = appended
        }
        try check(ccurl_set_list(pointer, CURLOPT_HTTPHEADER, headerList), "curl_easy_setopt(CURLOPT_HTTPHEADER)")
    }

    func setCallbacks(context: UnsafeMutableRawPointer) throws(HTTPTransportError) {
        try check(ccurl_set_data_callback(pointer, CURLOPT_WRITEFUNCTION, curlWrite), "curl_easy_setopt(CURLOPT_WRITEFUNCTION)")
        try set(CURLOPT_WRITEDATA, pointer: context, "CURLOPT_WRITEDATA")
        try check(ccurl_set_data_callback(pointer, CURLOPT_HEADERFUNCTION, curlHeader), "curl_easy_setopt(CURLOPT_HEADERFUNCTION)")
        try set(CURLOPT_HEADERDATA, pointer: context, "CURLOPT_HEADERDATA")
        try check(ccurl_set_progress_callback(pointer, curlProgress), "curl_easy_setopt(CURLOPT_XFERINFOFUNCTION)")
        try set(CURLOPT_XFERINFODATA, pointer: context, "CURLOPT_XFERINFODATA")
        try set(CURLOPT_NOPROGRESS, 0, "CURLOPT_NOPROGRESS")
    }

    func status() -> Int {
        var code = 0
        _ = ccurl_get_long(pointer, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    private func check(_ code: CURLcode, _ call: String) throws(HTTPTransportError) {
        guard code != CURLE_OK else { return }
        throw HTTPTransportError(
            kind: .setup, call: call, code: Int(code.rawValue), message: "\(call) failed: \(String(cString: ccurl_easy_strerror(code)))")
    }
}

private func exchange(_ pointer: UnsafeMutableRawPointer?) -> CurlExchange? {
    pointer.map { Unmanaged<CurlExchange>.fromOpaque($0).takeUnretainedValue() }
}

private let curlWrite: ccurl_data_callback = { bytes, size, count, user in
    guard let bytes, let exchange = exchange(user) else { return 0 }
    let length = size * count
    return exchange.body(Data(bytes: bytes, count: length)) ? length : 0
}

private let curlHeader: ccurl_data_callback = { bytes, size, count, user in
    guard let bytes, let exchange = exchange(user) else { return 0 }
    let length = size * count
    let line = String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    return exchange.header(line) ? length : 0
}

private let curlProgress: ccurl_progress_callback = { user, _, _, _, _ in
    guard let exchange = exchange(user) else { return 1 }
    return exchange.shouldAbort() ? 1 : 0
}
