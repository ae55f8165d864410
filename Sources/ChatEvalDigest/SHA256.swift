internal import COpenSSL
import Foundation

/// SHA-256 from the system's OpenSSL (libcrypto, through the `COpenSSL` module map), the one
/// digest ChatEval computes: model files, chat templates, project files, the Punkt tables.
///
/// libcrypto rather than swift-crypto: OpenSSL is on every machine that has libgit2 already, and
/// swift-crypto compiled its own copy of BoringSSL — 359 C objects — into every fresh build for
/// four hex digests. One Swift owner per `EVP_MD_CTX`, freed when it goes.
public final class SHA256Digest {
    private let context: OpaquePointer

    /// A digest of nothing yet. libcrypto refuses only when it cannot allocate: then a trap, as
    /// Swift's own allocations do.
    public init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            fatalError("libcrypto could not start a SHA-256 digest (EVP_MD_CTX_new / EVP_DigestInit_ex)")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(_ data: Data) {
        data.withUnsafeBytes { bytes in
            _ = EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
        }
    }

    /// The digest as 64 lowercase hexadecimal digits. Ends the digest: update it no more.
    public func hex() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = EVP_DigestFinal_ex(context, &digest, &length)
        return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
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
