import ChatEvalRuntime
import Testing

@Suite struct UTF8AssemblerTests {
    @Test(arguments: ["é", "日本", "👩‍💻", "a€b𝄞c"])
    func charactersSplitAtEveryByteComeOutWhole(_ text: String) {
        let bytes = Array(text.utf8)
        for cut in 1..<bytes.count {
            var assembler = UTF8Assembler()
            let first = assembler.append(bytes[..<cut])
            let second = assembler.append(bytes[cut...])
            #expect(first + second == text, "cut at byte \(cut)")
            #expect(!first.contains("\u{FFFD}") && !second.contains("\u{FFFD}"))
            #expect(assembler.pendingByteCount == 0)
        }
    }

    @Test func byteByByteStreamNeverEmitsHalfACharacter() {
        var assembler = UTF8Assembler()
        var emitted: [String] = []
        for byte in "ça va? 😀".utf8 { emitted.append(assembler.append([byte])) }
        #expect(emitted.joined() == "ça va? 😀")
        #expect(emitted.allSatisfy { !$0.unicodeScalars.contains("\u{FFFD}") })
    }

    @Test func invalidBytesBecomeReplacementCharacters() {
        var assembler = UTF8Assembler()
        #expect(assembler.append([0x61, 0xFF, 0x62]) == "a\u{FFFD}b")
        #expect(assembler.append([0xE6, 0x97]) == "")  // an unfinished 3-byte character is held back
        #expect(assembler.flush() == "\u{FFFD}")  // and replaced if the stream ends
    }

    /// An answer cut at max_tokens inside a character ends at the boundary before it (issue 31).
    @Test func anAnswerCutShortDropsTheUnfinishedCharacter() {
        var assembler = UTF8Assembler()
        #expect(assembler.append(Array("日本".utf8) + [0xE6, 0x97]) == "日本")
        #expect(assembler.discardUnfinished() == 2)
        #expect(assembler.pendingByteCount == 0 && assembler.flush() == "")
    }
}

@Suite struct StopStringMatcherTests {
    @Test func stopStringSplitAcrossPiecesIsCutAndNeverEmitted() {
        var matcher = StopStringMatcher(["\n\nUser:"])
        var emitted = ""
        var stopped: String?
        for piece in ["Paris is", " the capital.", "\n", "\nUs", "er: next"] {
            switch matcher.append(piece) {
            case .text(let text): emitted += text
            case .stopped(let before): stopped = before
            }
            if stopped != nil { break }
        }
        #expect(stopped.map { emitted + $0 } == "Paris is the capital.")
    }

    @Test func heldTextIsReleasedWhenItDoesNotBecomeAStop() {
        var matcher = StopStringMatcher(["END"])
        #expect(matcher.append("the EN") == .text("the "))
        #expect(matcher.append("VY") == .text("ENVY"))
    }

    @Test func earliestOfSeveralStopsWins() {
        var matcher = StopStringMatcher(["bar", "foo"])
        #expect(matcher.append("xx foo yy bar") == .stopped(before: "xx "))
    }

    @Test func withoutStopStringsEverythingPassesThrough() {
        var matcher = StopStringMatcher([])
        #expect(matcher.append("abc") == .text("abc"))
        #expect(matcher.flush() == "")
    }

    @Test func flushReturnsTheHeldTail() {
        var matcher = StopStringMatcher(["###"])
        #expect(matcher.append("done ##") == .text("done "))
        #expect(matcher.flush() == "##")
    }
}
