import ChatEvalCore
import Testing

/// `MemoryAttribution` over a hand-written smaps text: each mapping in its one bucket, and
/// every resident byte in exactly one.
struct MemoryAttributionTests {
    /// One mapping's header and the lines smaps gives after it, "Rss:" among them.
    private func mapping(_ range: String, _ path: String, rss kilobytes: Int) -> String {
        "\(range) r-xp 00000000 fe:00 123    \(path)\nSize:  100 kB\nRss:   \(kilobytes) kB\nPss:   \(kilobytes) kB\n"
    }

    private var smaps: String {
        mapping("7f0000000000-7f0000100000", "/models/chat.gguf", rss: 900)  // the model file
            + mapping("7f0000100000-7f0000500000", "", rss: 3000)  // an engine buffer
            + mapping("7f0000500000-7f0000600000", "/opt/llama/lib/libllama.so.0", rss: 40)
            + mapping("7f0000600000-7f0000700000", "/usr/lib/libgomp.so.1", rss: 8)
            + mapping("7f0000700000-7f0000800000", "/opt/swift/lib/libswiftCore.so", rss: 500)
            + mapping("7f0000800000-7f0000900000", "/opt/swift/lib/libswiftCore.so", rss: 20)
            + mapping("7f0000900000-7f0000a00000", "/work/chateval", rss: 700)
            + mapping("7f0000a00000-7f0000b00000", "", rss: 60)  // the harness's heap
            + mapping("7f0000b00000-7f0000c00000", "[heap]", rss: 30)
            + mapping("7ffc00000000-7ffc00100000", "[stack]", rss: 12)
    }

    @Test func everyResidentByteIsInExactlyOneBucket() {
        let mappings = MemoryAttribution.parse(smaps: smaps)
        #expect(mappings.count == 10)
        let split = MemoryAttribution.split(
            mappings, modelPaths: ["/models/chat.gguf"], engineRegions: [0x7f00_0010_0000..<0x7f00_0050_0000])
        #expect(split.modelFile == 900 * 1024)
        #expect(split.engineBuffers == 3000 * 1024)
        #expect(split.engineCode == 48 * 1024)
        #expect(split.harnessFiles == 1220 * 1024)
        #expect(split.harnessAnonymous == 102 * 1024)
        #expect(split.total == mappings.reduce(0) { $0 + $1.residentBytes })
        #expect(split.modelFile + split.engineBuffers + split.engineCode + split.harness == split.total)
        #expect(split.largestHarnessFiles(2).map(\.file) == ["/work/chateval", "/opt/swift/lib/libswiftCore.so"])
        #expect(split.largestHarnessFiles(2).map(\.bytes) == [700 * 1024, 520 * 1024])
    }

    /// An anonymous region the engine did not allocate is the harness's; a model path not given
    /// is a file like any other.
    @Test func whatIsNotNamedTheEnginesIsTheHarnesses() {
        let split = MemoryAttribution.split(MemoryAttribution.parse(smaps: smaps), modelPaths: [], engineRegions: [])
        #expect(split.modelFile == 0 && split.engineBuffers == 0)
        #expect(split.harnessAnonymous == 3102 * 1024)
        #expect(split.harnessFiles == 2120 * 1024)
    }

    /// The kernel merges an engine region with a neighbour of the same protection (or splits
    /// it): the mapping then starts elsewhere, and is still the engine's because it overlaps the
    /// region. A file mapped over addresses the region once had is not.
    @Test func anEngineRegionMergedWithANeighbourIsStillTheEngines() {
        let text =
            mapping("7f00000ff000-7f00004ff000", "", rss: 3004)  // 4 KiB below the region, merged into it
            + mapping("7f00004ff000-7f0000500000", "/data/file", rss: 4)
        let split = MemoryAttribution.split(
            MemoryAttribution.parse(smaps: text), modelPaths: [], engineRegions: [0x7f00_0010_0000..<0x7f00_0050_0000])
        #expect(split.engineBuffers == 3004 * 1024)
        #expect(split.harnessFiles == 4 * 1024 && split.harnessAnonymous == 0)
    }

    /// A model file removed while mapped is still the model's.
    @Test func aDeletedModelFileIsStillTheModels() {
        let split = MemoryAttribution.split(
            MemoryAttribution.parse(smaps: mapping("1000-2000", "/models/chat.gguf (deleted)", rss: 4)), modelPaths: ["/models/chat.gguf"],
            engineRegions: [])
        #expect(split.modelFile == 4 * 1024)
    }

    @Test func newLargeAnonymousRegionsAreThoseOfAtLeastOneMebibyteThatAppeared() {
        let before = MemoryAttribution.parse(smaps: mapping("1000-201000", "", rss: 4))
        let now = MemoryAttribution.parse(
            smaps: mapping("1000-201000", "", rss: 4) + mapping("300000-400000", "", rss: 4) + mapping("500000-5ff000", "", rss: 4)
                + mapping("600000-800000", "/lib/x.so", rss: 4))
        #expect(MemoryAttribution.newLargeAnonymousRegions(since: before, now: now) == [0x30_0000..<0x40_0000])
    }

    /// A header that does not parse takes its "Rss:" line with it; an "Rss:" before any header
    /// is nobody's.
    @Test func aBrokenHeaderIsSkippedWithItsLines() {
        let text = "Rss:   99 kB\n" + mapping("zz-10", "/a", rss: 7) + mapping("20-10", "/b", rss: 5) + mapping("10-20", "/c", rss: 3)
        let mappings = MemoryAttribution.parse(smaps: text)
        #expect(mappings == [MemoryAttribution.Mapping(start: 0x10, size: 0x10, path: "/c", residentBytes: 3 * 1024)])
    }
}
