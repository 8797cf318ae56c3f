import Testing
@testable import NextUpCore
@testable import NextUpStore

/// The versions column (`field:<16 hex>@<replica>,…`) is parsed on bytes; it
/// must read back exactly what was written and skip what is malformed.
struct TaskRowVersionsTests {
    @Test func writtenVersionsReadBackUnchanged() {
        let replicas = (0..<3).map { _ in ReplicaID.make() }
        for round in 0..<100 {
            var versions: [TaskField: Version] = [:]
            for (i, field) in TaskField.known.enumerated() where (round + i) % 3 != 0 {
                let ts = HybridTimestamp(rawValue: Int64.random(in: 0...Int64.max))
                versions[field] = Version(timestamp: ts, replica: replicas[(round + i) % replicas.count])
            }
            #expect(TaskRow.decodeVersions(TaskRow.encodeVersions(versions)) == versions)
        }
    }

    /// The column is written on bytes; it must be exactly what
    /// `Version.encoded` joined with string interpolation gave.
    @Test func writtenColumnIsTheInterpolatedForm() {
        let replicas = (0..<3).map { _ in ReplicaID.make() }
        let edges: [Int64] = [0, 1, 0xF, 0x10, Int64.max, Int64.min, -1]
        for round in 0..<100 {
            var versions: [TaskField: Version] = [:]
            for (i, field) in TaskField.known.enumerated() where (round + i) % 4 != 0 {
                let raw = round < edges.count ? edges[round] : Int64.random(in: Int64.min...Int64.max)
                versions[field] = Version(timestamp: HybridTimestamp(rawValue: raw), replica: replicas[(round + i) % replicas.count])
            }
            let interpolated = versions.sorted { $0.key < $1.key }.map { "\($0.key.rawValue):\($0.value.encoded)" }.joined(separator: ",")
            #expect(TaskRow.encodeVersions(versions) == interpolated)
        }
        #expect(TaskRow.encodeVersions([:]) == "")
    }

    @Test func opaqueAndTagRegistersKeepTheirVersions() {
        let version = "0000019a6b3c0001@6301bbfc-a0c5-454e-8ff9-bb510944fe0c"
        let text = "title:\(version),tag:Work:x@y:\(version),x-colour:\(version)"
        let decoded = TaskRow.decodeVersions(text)
        #expect(Set(decoded.keys.map(\.rawValue)) == ["title", "tag:Work:x@y", "x-colour"])
        #expect(TaskRow.decodeVersions(TaskRow.encodeVersions(decoded)) == decoded)
    }

    @Test func malformedEntriesAreSkipped() {
        let good = "title:0000019a6b3c0001@6301bbfc-a0c5-454e-8ff9-bb510944fe0c"
        let expected = Version(timestamp: HybridTimestamp(rawValue: 0x0000_019a_6b3c_0001),
                               replica: ReplicaID("6301bbfc-a0c5-454e-8ff9-bb510944fe0c")!)
        for bad in ["", ",", "nofield", "bad name:0000019a6b3c0001@6301bbfc-a0c5-454e-8ff9-bb510944fe0c",
                    "notes:0000019a6b3c001@6301bbfc-a0c5-454e-8ff9-bb510944fe0c",
                    "notes:0000019a6b3c0x01@6301bbfc-a0c5-454e-8ff9-bb510944fe0c",
                    "notes:8000000000000000@6301bbfc-a0c5-454e-8ff9-bb510944fe0c",
                    "notes:0000019a6b3c0001@not-a-uuid", "notes:0000019a6b3c0001"] {
            #expect(TaskRow.decodeVersions(bad + "," + good) == [.title: expected], "\(bad)")
            #expect(TaskRow.decodeVersions(good + "," + bad) == [.title: expected], "\(bad)")
        }
    }
}
