import Foundation
import NextUpCore

/// Line 1 of every log: names the format and version, the replica that writes
/// the file, and the file's generation.
///
/// The generation is a fresh UUID each time the writer starts the file anew
/// (first write, compaction, repair). Readers keep a cursor per generation; a
/// different generation means "re-read this file from the start".
public struct LogHeader: Hashable, Sendable {
    public var version: Int
    /// The only replica that ever appends to this file.
    public var replica: ReplicaID
    public var generation: String
    /// When the file was started, milliseconds since the epoch (informational).
    public var created: Int64
    /// Set when this replica took a new id after finding its store had been
    /// copied: the id it had before. Changes by that id found in this file are
    /// then known to come from the copy and are not taken as a second copy.
    public var previousReplica: ReplicaID?
    /// The writer's machine name (for the history), when it has one.
    public var machine: String?

    public init(replica: ReplicaID, generation: String = LogHeader.makeGeneration(), created: Int64, previousReplica: ReplicaID? = nil, version: Int = LogFormat.version) {
        self.version = version
        self.replica = replica
        self.generation = generation
        self.created = created
        self.previousReplica = previousReplica
    }

    /// A fresh generation id.
    public static func makeGeneration() -> String { UUID().uuidString.lowercased() }

    /// The header as one self-checking line, with its newline.
    public func encodedLine() -> [UInt8] {
        var out: [UInt8] = []
        JSONText.appendRaw("{\"format\":", to: &out)
        JSONText.appendString(LogFormat.name, to: &out)
        JSONText.appendRaw(",\"version\":\(version),\"replica\":", to: &out)
        JSONText.appendString(replica.rawValue, to: &out)
        JSONText.appendRaw(",\"generation\":", to: &out)
        JSONText.appendString(generation, to: &out)
        JSONText.appendRaw(",\"created\":\(created)", to: &out)
        if let previousReplica {
            JSONText.appendRaw(",\"previous_replica\":", to: &out)
            JSONText.appendString(previousReplica.rawValue, to: &out)
        }
        if let machine {
            JSONText.appendRaw(",\"machine\":", to: &out)
            JSONText.appendString(machine, to: &out)
        }
        JSONText.sealWithChecksum(&out)
        out.append(0x0A)
        return out
    }
}
