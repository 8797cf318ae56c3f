import NextUpCore

/// Constants of the peer-folder log format (DESIGN.md §5).
///
/// A log is UTF-8 JSON Lines. Line 1 is a ``LogHeader``; every other line is a
/// ``LogRecord`` (one or more field changes of one task). Every line ends with
/// a checksum member, `"crc":"<8 hex>"`, the CRC-32 of the line's JSON object
/// as written *without* that member: a line is the object's bytes with its
/// closing `}` replaced by `,"crc":"…"}`. A reader therefore verifies a line
/// from its raw bytes, before trusting anything in it.
public enum LogFormat {
    /// The `format` member of every header.
    public static let name = "nextup-log"
    /// The version this code writes, and the newest it reads.
    public static let version = 1
    /// Lines longer than this are skipped as damage without being parsed.
    /// (The longest legitimate line, a task with maximal notes, is far shorter.)
    public static let maxLineLength = 4 * 1024 * 1024
    /// How much of a file's start is read to find its header line.
    public static let maxHeaderLength = 64 * 1024

    /// The file name of a replica's log: `nextup-<replica-id>.log`.
    public static func fileName(for replica: ReplicaID) -> String { "nextup-\(replica.rawValue).log" }
}
