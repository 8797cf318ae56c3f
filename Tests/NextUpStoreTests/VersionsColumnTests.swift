import Testing
@testable import NextUpCore
@testable import NextUpStore

/// The versions column and outbox entries (``VersionsColumn``:
/// `@<replica>,<field>:<16 hex>,…`) are parsed on bytes; they must read back
/// exactly what was written, name each replica once, and skip what is
/// malformed. The v1–v4 form (`<field>:<16 hex>@<replica>`) is still read for
/// the v5 migration.
struct VersionsColumnTests {
    static func randomVersions(_ round: Int, replicas: [ReplicaID]) -> [TaskField: Version] {
        let edges: [Int64] = [0, 1, 0xF, 0x10, Int64.max]
        var versions: [TaskField: Version] = [:]
        let fields = TaskField.known + [TaskField.tag("Work:x@y"), TaskField.tag("日本"), TaskField(rawValue: "x-colour")!]
        for (i, field) in fields.enumerated() where (round + i) % 3 != 0 {
            let raw = round < edges.count ? edges[round] : Int64.random(in: 0...Int64.max)
            versions[field] = Version(timestamp: HybridTimestamp(rawValue: raw), replica: replicas[(round * 7 + i) % replicas.count])
        }
        return versions
    }

    @Test func writtenVersionsReadBackUnchanged() {
        for replicaCount in 1...3 {
            let replicas = (0..<replicaCount).map { _ in ReplicaID.make() }
            for round in 0..<100 {
                let versions = Self.randomVersions(round, replicas: replicas)
                let text = VersionsColumn.encode(versions)
                #expect(VersionsColumn.decode(text) == versions)
                // Each replica is named exactly once.
                let named = text.split(separator: ",").filter { $0.hasPrefix("@") }
                #expect(named.count == Set(versions.values.map(\.replica)).count)
                #expect(Set(named) .count == named.count)
            }
        }
        #expect(VersionsColumn.encode([:]) == "")
        #expect(VersionsColumn.decode("") == [:])
    }

    @Test func theFormIsTheDocumentedOne() {
        let a = ReplicaID("6301bbfc-a0c5-454e-8ff9-bb510944fe0c")!
        let b = ReplicaID("0b7c5f0e-5c59-4b8e-9a55-7d1f0c1e2a3b")!
        let versions: [TaskField: Version] = [
            .title: Version(timestamp: HybridTimestamp(rawValue: 0x19a_6b3c_0001), replica: a),
            .notes: Version(timestamp: HybridTimestamp(rawValue: 0x19a_6b3c_0002), replica: b),
            .tag("Work"): Version(timestamp: HybridTimestamp(rawValue: 0x10), replica: a),
        ]
        #expect(VersionsColumn.encode(versions)
                == "@0b7c5f0e-5c59-4b8e-9a55-7d1f0c1e2a3b,notes:0000019a6b3c0002,@6301bbfc-a0c5-454e-8ff9-bb510944fe0c,title:0000019a6b3c0001,tag:Work:0000000000000010")
    }

    @Test func theLegacyFormReadsToTheSameVersions() {
        let replicas = (0..<3).map { _ in ReplicaID.make() }
        for round in 0..<50 {
            let versions = Self.randomVersions(round, replicas: replicas)
            let legacy = versions.sorted { $0.key < $1.key }.map { "\($0.key.rawValue):\($0.value.encoded)" }.joined(separator: ",")
            #expect(VersionsColumn.decodeLegacy(legacy) == versions)
        }
    }

    @Test func malformedEntriesAreSkipped() {
        let replica = "@6301bbfc-a0c5-454e-8ff9-bb510944fe0c"
        let good = "title:0000019a6b3c0001"
        let expected = Version(timestamp: HybridTimestamp(rawValue: 0x0000_019a_6b3c_0001),
                               replica: ReplicaID("6301bbfc-a0c5-454e-8ff9-bb510944fe0c")!)
        for bad in ["", ",", "nofield", "bad name:0000019a6b3c0001", "notes:0000019a6b3c001", "notes:0000019a6b3c0x01",
                    "notes:8000000000000000", "@not-a-uuid-but-thirty-six-characters", "notes:0000019a6b3c0001@6301bbfc-a0c5-454e-8ff9-bb510944fe0c"] {
            #expect(VersionsColumn.decode([replica, bad, good].joined(separator: ",")) == [.title: expected], "\(bad)")
            #expect(VersionsColumn.decode([replica, good, bad].joined(separator: ",")) == [.title: expected], "\(bad)")
        }
        // A field entry before any replica is named has no replica: skipped.
        #expect(VersionsColumn.decode("notes:0000019a6b3c0001,\(replica),\(good)") == [.title: expected])
    }
}
