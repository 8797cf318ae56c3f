import Foundation
import Testing
@testable import NextUpCore
@testable import NextUpStore
import NextUpTestSupport

/// `export` reads rows in place (``TaskRowBuffer``, ``TaskColumns``): the
/// fast paths under it must agree with the forms a ``TaskItem`` read uses.
struct TaskRowBufferTests {
    /// The byte check of a row's id accepts exactly the text ``TaskID``
    /// keeps as it is (anything else goes through ``TaskID`` itself).
    @Test func theIDCheckIsTaskIDsCanonicalForm() {
        var rng = SeededRandom(seed: 7)
        let alphabet = Array("0123456789abcdefABCDEFgz-_ é".unicodeScalars)
        for _ in 0..<5_000 {
            var text = Array(TaskID.make().rawValue.unicodeScalars)
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                text[Int.random(in: 0..<text.count, using: &rng)] = alphabet.randomElement(using: &rng)!
            }
            if Int.random(in: 0..<20, using: &rng) == 0 { text.removeLast() }
            let string = String(String.UnicodeScalarView(text))
            var utf8 = Array(string.utf8)
            let fast = utf8.withUnsafeMutableBufferPointer { CanonicalUUID.isCanonicalLowercase(UnsafeBufferPointer($0)) }
            #expect(fast == (CanonicalUUID.canonical(string) == string), "\(string)")
        }
    }

    /// ``VersionsColumn/forEachVersion(_:replicas:_:)`` gives the entries
    /// ``VersionsColumn/decode(_:)`` maps, and their newest timestamp, well
    /// formed or not.
    @Test func versionsReadInPlaceAreTheDecodedOnes() {
        let replicas = (0..<3).map { _ in ReplicaID.make() }
        var texts: [String] = ["", "title", "@bad,=0000019a6b3c0001,title", "=zz,title",
                               "@\(replicas[0].rawValue),=0000019a6b3c0001,title,,notes,=0000019a6b3c0002,\\@odd,tag:x@y"]
        for round in 0..<200 {
            var versions: [TaskField: Version] = [:]
            for (i, field) in (TaskField.known + [.tag("Work"), TaskField(rawValue: "x-\(round % 5)")!]).enumerated() where (round + i) % 3 != 0 {
                versions[field] = Version(timestamp: HybridTimestamp(millis: Int64(round * 7 + i % 4), counter: Int64(i % 2)),
                                          replica: replicas[(round + i) % 3])
            }
            texts.append(VersionsColumn.encode(versions))
        }
        for text in texts {
            var seen: [TaskField: Version] = [:]
            var count = 0
            var bytes = Array(text.utf8)
            var cache = VersionsColumn.Replicas()
            let newest = bytes.withUnsafeMutableBufferPointer { buffer in
                VersionsColumn.forEachVersion(UnsafeBufferPointer(buffer), replicas: &cache) { field, version in
                    seen[field] = version
                    count += 1
                }
            }
            let decoded = VersionsColumn.decode(text)
            #expect(seen == decoded, "\(text)")
            #expect(count == decoded.count, "\(text)")
            #expect(newest == (decoded.values.map(\.timestamp).max() ?? .zero), "\(text)")
        }
    }

    /// Sorting packed keys gives the order of comparing (creation time,
    /// position) pairs — ties included — and declines (nil) rows not in id
    /// order or times spanning more than the key holds.
    @Test func theExportSortOfTheRestIsTheComparedOne() {
        var rng = SeededRandom(seed: 11)
        for round in 0..<300 {
            let spread: Int64 = [3, 1_000, 1_800_000_000_000][round % 3]
            var rest: [(created: Int64, row: Int)] = []
            var row = 0
            for _ in 0..<Int.random(in: 0..<400, using: &rng) {
                row += Int.random(in: 1...3, using: &rng)
                rest.append((Int64.random(in: -spread...spread, using: &rng), row))
            }
            let compared = rest.sorted { a, b in a.created != b.created ? a.created < b.created : a.row < b.row }.map(\.row)
            #expect(TaskRowBuffer.sortedByCreation(rest, rowsInIDOrder: true) == compared)
            #expect(TaskRowBuffer.sortedByCreation(rest, rowsInIDOrder: false) == nil)
        }
        let wide: [(created: Int64, row: Int)] = [(.max, 0), (.min, 1), (0, 2)]
        #expect(TaskRowBuffer.sortedByCreation(wide, rowsInIDOrder: true) == nil)
        let tooWideForTheRows: [(created: Int64, row: Int)] = [(1 << 50, 0), (0, 100_000)]
        #expect(TaskRowBuffer.sortedByCreation(tooWideForTheRows, rowsInIDOrder: true) == nil)
        let fits: [(created: Int64, row: Int)] = [(1 << 40, 3), (0, 100_000), (1 << 40, 0)]
        #expect(TaskRowBuffer.sortedByCreation(fits, rowsInIDOrder: true) == [100_000, 0, 3])
    }
}
