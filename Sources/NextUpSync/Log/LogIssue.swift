/// Something wrong found while reading a peer-folder file: reported to the
/// user, never fatal. The damaged part is skipped; everything else is read.
public struct LogIssue: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The file holds no bytes at all.
        case emptyFile
        /// The first line is not a nextup log header.
        case notALog(String)
        /// The header names a newer format version than this nextup reads.
        case newerVersion(Int)
        /// The header names a replica other than the one in the file name.
        case wrongReplica(String)
        /// The file ends inside a line (a torn write, or one still in progress).
        case incompleteLastLine(bytes: Int64)
        /// A line longer than ``LogFormat/maxLineLength``.
        case lineTooLong(bytes: Int64)
        /// A line that is not valid UTF-8.
        case invalidUTF8
        /// A line whose checksum does not match its content.
        case checksumMismatch
        /// A line with a valid checksum that is not a well-formed record.
        case malformed(String)
        /// One field of an otherwise good record was not accepted.
        case invalidField(String)
        /// A change dated beyond the sane future of this machine's clock: not
        /// taken yet, read again at every sync (a clock behind, or damage).
        case aheadOfClock(String)
        /// The file could not be read.
        case unreadable(String)
    }

    /// The file's name within the peer folder.
    public let file: String
    /// The byte offset of the damaged line, when the issue is about one line.
    public let offset: Int64?
    public let kind: Kind

    public init(file: String, offset: Int64?, kind: Kind) {
        self.file = file
        self.offset = offset
        self.kind = kind
    }

    /// Whether the issue makes the reader skip the whole file.
    public var skipsFile: Bool {
        switch kind {
        case .emptyFile, .notALog, .newerVersion, .wrongReplica, .unreadable: return true
        default: return false
        }
    }

    /// Whether the issue is a line damaged on its way (a copy of the file
    /// without the damage may turn up): a checksum mismatch, invalid UTF-8,
    /// a line too long or not a change.
    public var isLineDamage: Bool {
        switch kind {
        case .checksumMismatch, .invalidUTF8, .lineTooLong, .malformed: return true
        default: return false
        }
    }

    /// One line in plain words, e.g. `nextup-1234….log, byte 880: checksum mismatch; line skipped`.
    public var description: String {
        let place = offset.map { "\(file), byte \($0)" } ?? file
        switch kind {
        case .emptyFile: return "\(place): empty file; skipped"
        case .notALog(let why): return "\(place): not a nextup log (\(why)); skipped"
        case .newerVersion(let v): return "\(place): written in log format version \(v), newer than this nextup reads (\(LogFormat.version)); skipped — upgrade nextup to read it"
        case .wrongReplica(let why): return "\(place): \(why); skipped"
        case .incompleteLastLine(let n): return "\(place): ends inside a line (\(n) bytes, torn or still being written); not read yet"
        case .lineTooLong(let n): return "\(place): line of \(n) bytes is too long; line skipped"
        case .invalidUTF8: return "\(place): line is not valid UTF-8; line skipped"
        case .checksumMismatch: return "\(place): line is damaged (checksum mismatch); line skipped"
        case .malformed(let why): return "\(place): line is not a valid change (\(why)); line skipped"
        case .invalidField(let why): return "\(place): \(why); field skipped"
        case .aheadOfClock(let why): return "\(place): \(why); not taken yet, read again at every sync (is this machine's clock right?)"
        case .unreadable(let why): return "\(place): cannot be read (\(why)); skipped"
        }
    }
}
