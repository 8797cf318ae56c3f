import Testing
import Foundation
import NextUpCore
@testable import NextUpSync

/// Deterministic ids and changes for tests.
enum Fixtures {
    static let replicaA = ReplicaID("aaaaaaaa-0000-4000-8000-000000000001")!
    static let replicaB = ReplicaID("bbbbbbbb-0000-4000-8000-000000000002")!
    static let replicaC = ReplicaID("cccccccc-0000-4000-8000-000000000003")!

    static func task(_ n: Int) -> TaskID {
        TaskID(String(format: "00000000-0000-4000-8000-%012d", n))!
    }

    static func version(_ millis: Int64, _ replica: ReplicaID = replicaA, counter: Int64 = 0) -> Version {
        Version(timestamp: HybridTimestamp(millis: millis, counter: counter), replica: replica)
    }

    static func change(_ task: TaskID, _ field: TaskField, _ value: FieldValue, _ version: Version) -> FieldChange {
        FieldChange(task: task, field: field, value: value, version: version)
    }

    /// A line with a valid checksum around any JSON object text (without its checksum).
    static func sealed(_ object: String) -> [UInt8] {
        var bytes = Array(object.utf8)
        precondition(bytes.last == UInt8(ascii: "}"))
        bytes.removeLast()
        JSONText.sealWithChecksum(&bytes)
        return bytes + [0x0A]
    }
}

/// The two peer-folder implementations, for contract suites run against both.
enum PeerFolderKind: String, CaseIterable, CustomTestStringConvertible {
    case local
    case inMemory
    var testDescription: String { rawValue }
}

/// A peer folder of either kind, keeping its temporary folder alive.
final class PeerFolderFixture: @unchecked Sendable {
    let folder: any PeerFolder
    private let temporary: TemporaryFolder?

    init(_ kind: PeerFolderKind) throws {
        switch kind {
        case .local:
            let temp = try TemporaryFolder("peer")
            temporary = temp
            folder = LocalPeerFolder(url: temp.url)
        case .inMemory:
            temporary = nil
            folder = InMemoryPeerFolder()
        }
    }
}

/// Runs `body` with a fresh peer folder of `kind`, kept alive throughout.
func withPeerFolder<T>(_ kind: PeerFolderKind, _ body: (any PeerFolder) throws -> T) throws -> T {
    let fixture = try PeerFolderFixture(kind)
    return try withExtendedLifetime(fixture) { try body(fixture.folder) }
}
