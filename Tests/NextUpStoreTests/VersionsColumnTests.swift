import Testing
@testable import NextUpCore
@testable import NextUpStore

/// The versions column and outbox entries (``VersionsColumn``:
/// `@<replica>,=<16 hex>,<field>,…`) are parsed on bytes; they must read back
/// exactly what was written, name each replica and each version once, and
/// skip what is malformed. The v1–v4 form (`<field>:<16 hex>@<replica>`) is still read for
/// the v5 migration.
struct VersionsColumnTests {
    static func randomVersions(_ round: Int, replicas: [ReplicaID]) -> [TaskField: Version] {
        let edges: [Int64] = [0, 1, 0xF, 0x10, Int64.max]
        var versions: [TaskField: Version] = [:]
        let fields = TaskField.known + [TaskField.tag("Work:x@y"), TaskField.tag("日本"), TaskField(rawValue: "x-colour")!,
                                        TaskField(rawValue: "@odd")!, TaskField(rawValue: "=0000000000000001")!, TaskField(rawValue: "\\x")!]
        // Most fields share one of a few timestamps, as rows do.
        let shared = (0..<2).map { _ in Int64.random(in: 0...Int64.max) }
        for (i, field) in fields.enumerated() where (round + i) % 3 != 0 {
            let raw = round < edges.count ? edges[round] : (i % 4 == 0 ? Int64.random(in: 0...Int64.max) : shared[i % 2])
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
                // Each replica is named once, each version once.
                let entries = text.split(separator: ",")
                #expect(entries.filter { $0.hasPrefix("@") }.count == Set(versions.values.map(\.replica)).count)
                #expect(entries.filter { $0.hasPrefix("=") }.count == Set(versions.values).count)
            }
        }
        #expect(VersionsColumn.encode([:]) == "")
        #expect(VersionsColumn.decode("") == [:])
    }

    @Test func theFormIsTheDocumentedOne() {
        let a = ReplicaID("6301bbfc-a0c5-454e-8ff9-bb510944fe0c")!
        let b = ReplicaID("0b7c5f0e-5c59-4b8e-9a55-7d1f0c1e2a3b")!
        let one = HybridTimestamp(rawValue: 0x19a_6b3c_0001)
        let versions: [TaskField: Version] = [
            .title: Version(timestamp: one, replica: a),
            .urgency: Version(timestamp: one, replica: a),
            .notes: Version(timestamp: HybridTimestamp(rawValue: 0x19a_6b3c_0002), replica: b),
            .tag("Work"): Version(timestamp: HybridTimestamp(rawValue: 0x10), replica: a),
            TaskField(rawValue: "=odd")!: Version(timestamp: one, replica: a),
        ]
        #expect(VersionsColumn.encode(versions)
                == "@0b7c5f0e-5c59-4b8e-9a55-7d1f0c1e2a3b,=0000019a6b3c0002,notes,@6301bbfc-a0c5-454e-8ff9-bb510944fe0c,=0000000000000010,tag:Work,=0000019a6b3c0001,title,urgency,\\=odd")
        // One version for every field (a task written in one edit): the
        // same form, fields in field order.
        let single = Dictionary(uniqueKeysWithValues: versions.keys.map { ($0, Version(timestamp: one, replica: a)) })
        #expect(VersionsColumn.encode(single) == "@6301bbfc-a0c5-454e-8ff9-bb510944fe0c,=0000019a6b3c0001,title,notes,urgency,\\=odd,tag:Work")
        // An outbox entry's fields at one version, a field named twice: the same form.
        let named = Array(versions.keys) + [.title, .tag("Work")]
        #expect(VersionsColumn.encode(named.shuffled(), at: Version(timestamp: one, replica: a)) == VersionsColumn.encode(single))
    }

    /// What export writes (``StoredVersions/sortedByName()``): the decoded
    /// map's entries, fields in the byte order of their names.
    @Test func entriesByNameAreTheMapInByteOrder() {
        let replicas = (0..<3).map { _ in ReplicaID.make() }
        for round in 0..<100 {
            let versions = Self.randomVersions(round, replicas: replicas)
            let listed = StoredVersions(versions).sortedByName()
            let expected = versions.sorted { $0.key.rawValue.utf8.lexicographicallyPrecedes($1.key.rawValue.utf8) }
            #expect(listed.map(\.field) == expected.map(\.key))
            #expect(listed.map(\.version) == expected.map(\.value))
        }
        // A field named twice (never written so): once, with its last entry, as in the map.
        let column = "@6301bbfc-a0c5-454e-8ff9-bb510944fe0c,=0000019a6b3c0001,title,tag:b,notes,tag:a,=0000019a6b3c0002,title,urgency,tag:b"
        var cache = VersionsColumn.Replicas()
        let listed = VersionsColumn.entriesByName(column, replicas: &cache)
        #expect(listed.map(\.field) == [.notes, .tag("a"), .tag("b"), .title, .urgency])
        #expect(Dictionary(uniqueKeysWithValues: listed.map { ($0.field, $0.version) }) == VersionsColumn.decode(column))
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
        let head = "@6301bbfc-a0c5-454e-8ff9-bb510944fe0c,=0000019a6b3c0001"
        let expected = Version(timestamp: HybridTimestamp(rawValue: 0x0000_019a_6b3c_0001),
                               replica: ReplicaID("6301bbfc-a0c5-454e-8ff9-bb510944fe0c")!)
        for bad in ["", "bad name", "\\", "\\bad name"] {
            #expect(VersionsColumn.decode([head, bad, "title"].joined(separator: ",")) == [.title: expected], "\(bad)")
            #expect(VersionsColumn.decode([head, "title", bad].joined(separator: ",")) == [.title: expected], "\(bad)")
        }
        // A bad replica or timestamp leaves the fields after it without a version.
        for bad in ["@not-a-uuid-but-thirty-six-characters", "@6301bbfc", "=0000019a6b3c001", "=0000019a6b3c0x01", "=8000000000000000"] {
            #expect(VersionsColumn.decode([head, "title", bad, "notes"].joined(separator: ",")) == [.title: expected], "\(bad)")
        }
        // Fields before any replica or timestamp have no version.
        #expect(VersionsColumn.decode("notes,@6301bbfc-a0c5-454e-8ff9-bb510944fe0c,urgency,=0000019a6b3c0001,title") == [.title: expected])
    }
}
