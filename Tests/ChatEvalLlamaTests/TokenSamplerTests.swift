import ChatEvalCore
import Testing

@testable import ChatEvalLlama

/// Greedy decoding's argmax, in 16-lane passes, against the plain loop on inputs built to tell
/// them apart: the maximum in the vector part and in the tail, ties (the first must win), NaN
/// anywhere (never the winner; first: index 0), signed zeros, infinities, every length up to 70.
@Suite struct TokenSamplerTests {
    /// The plain loop greedy decoding used before: the first index whose value is greater than
    /// every value before it.
    private static func reference(_ values: UnsafePointer<Float>, count: Int) -> Int {
        var best = values[0]
        var bestIndex = 0
        for index in 1..<count where values[index] > best {
            best = values[index]
            bestIndex = index
        }
        return bestIndex
    }

    private func both(_ values: [Float]) -> (Int, Int) {
        values.withUnsafeBufferPointer { buffer in
            (
                TokenSampler.argmax(buffer.baseAddress!, count: buffer.count),
                Self.reference(buffer.baseAddress!, count: buffer.count)
            )
        }
    }

    @Test func agreesWithThePlainLoopOnBuiltEdges() {
        let cases: [(String, [Float], Int)] = [
            ("one value", [3], 0),
            ("the maximum in the tail after a full block", Array(repeating: 1, count: 16) + [1, 2, 5], 18),
            ("the maximum in the first block", [0, 9] + Array(repeating: 1, count: 30), 1),
            ("a tie: the first wins, across blocks", Array(repeating: 0, count: 20) + [7] + Array(repeating: 0, count: 20) + [7], 20),
            ("a tie inside one block", [1, 4, 2, 4] + Array(repeating: 0, count: 12), 1),
            ("NaN first gives 0, as the loop does", [.nan, 1, 2, 3] + Array(repeating: 9, count: 20), 0),
            ("NaN later never wins", [1] + Array(repeating: .nan, count: 20) + [2, .nan], 21),
            ("signed zeros are one maximum: the first", [-0.0, 0.0] + Array(repeating: -1, count: 20), 0),
            ("positive zero first", Array(repeating: -1, count: 17) + [0.0, -0.0], 17),
            ("infinity", Array(repeating: -Float.infinity, count: 33) + [.infinity, .infinity], 33),
            ("every value negative infinity", Array(repeating: -Float.infinity, count: 40), 0),
            ("the largest finite value", [Float](repeating: 1, count: 47) + [.greatestFiniteMagnitude], 47),
        ]
        for (name, values, expected) in cases {
            let (fast, reference) = both(values)
            #expect(reference == expected, "reference: \(name)")
            #expect(fast == expected, "\(name)")
        }
    }

    @Test func agreesWithThePlainLoopOnSeededValues() {
        var generator = SeededRandom(seed: 42)
        for length in Array(1...70) + [262_144] {
            for round in 0..<(length > 1_000 ? 5 : 40) {
                var values = (0..<length).map { _ in Float(generator.next() % 21) - 10 }
                // Few distinct values: ties everywhere; some rounds add NaNs and zeros of both signs.
                if round % 3 == 1 { for _ in 0..<max(1, length / 8) { values[Int(generator.next() % UInt64(length))] = .nan } }
                if round % 4 == 2 { for _ in 0..<max(1, length / 8) { values[Int(generator.next() % UInt64(length))] = -0.0 } }
                let (fast, reference) = both(values)
                #expect(fast == reference, "length \(length), round \(round)")
            }
        }
    }
}
