import ChatEvalDigest
import Foundation
import Testing

/// `SHA256Digest` against FIPS 180-4's examples and the digest of a million "a" (NIST's long
/// message vector), whole and fed in pieces that do not fall on SHA-256's 64-byte blocks.
@Suite struct SHA256DigestTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func theStandardsExamples(_ message: String, _ expected: String) {
        #expect(SHA256Digest.hex(message) == expected)
    }

    @Test func aMillionAFedInUnevenPiecesIsTheWholeDigest() {
        let whole = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(SHA256Digest.hex(whole) == expected)
        let digest = SHA256Digest()
        var offset = 0, piece = 1
        while offset < whole.count {
            let end = min(whole.count, offset + piece)
            digest.update(whole[offset..<end])
            offset = end
            piece = piece * 3 % 1_001 + 1  // 1, 4, 13, 40, 121, 364, 92, ...: across block boundaries
        }
        #expect(digest.hex() == expected)
    }
}
