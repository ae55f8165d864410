internal import COpenSSL
import Foundation

/// SHA-256 from the system's OpenSSL (libcrypto, through the `COpenSSL` module map), the one
/// digest ChatEval computes: model files, chat templates, project files, the Punkt tables.
///
/// libcrypto rather than swift-crypto: OpenSSL is on every machine that has libgit2 already, and
/// swift-crypto compiled its own copy of BoringSSL — 359 C objects — into every fresh build for
/// four hex digests. Its low-level SHA-256 functions rather than EVP: see `COpenSSL/shim.h` (the
/// EVP path initialised OpenSSL's providers, 1.9 MiB resident, for the same digest).
/// One Swift owner per `SHA256_CTX`, freed when it goes.
public final class SHA256Digest {
    private let context: UnsafeMutablePointer<SHA256_CTX>

    /// A digest of nothing yet. `SHA256_Init` only fills the context in (it cannot fail in
    /// OpenSSL 3.0); a failure it reported anyway would trap, naming the call.
    public init() {
        context = .allocate(capacity: 1)
        guard SHA256_Init(context) == 1 else { fatalError("libcrypto could not start a SHA-256 digest (SHA256_Init)") }
    }

    deinit { context.deallocate() }

    public func update(_ data: Data) {
        data.withUnsafeBytes { bytes in
            _ = SHA256_Update(context, bytes.baseAddress, bytes.count)
        }
    }

    /// The digest as 64 lowercase hexadecimal digits. Ends the digest: update it no more.
    public func hex() -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        _ = SHA256_Final(&digest, context)
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] }, as: UTF8.self)
    }

    /// The hex SHA-256 of `data`.
    public static func hex(_ data: Data) -> String {
        let digest = SHA256Digest()
        digest.update(data)
        return digest.hex()
    }

    /// The hex SHA-256 of `text`'s UTF-8 bytes.
    public static func hex(_ text: String) -> String { hex(Data(text.utf8)) }
}
