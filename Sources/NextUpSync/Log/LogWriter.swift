import NextUpCore

/// Writes this replica's own log, the only file it ever writes to.
///
/// Contract:
/// - ``append(_:header:)`` first repairs a torn tail (a last line without its
///   newline, left by a crash mid-write) by cutting the file back to its last
///   complete line, starts a missing or empty file with `header`, then writes
///   all the new lines in one write and fsyncs before returning.
/// - ``rewrite(header:records:)`` replaces the whole file atomically (temp
///   file, fsync, rename): readers see the old file or the new one.
public struct LogWriter {
    public let folder: any PeerFolder
    public let owner: ReplicaID
    public var fileName: String { LogFormat.fileName(for: owner) }

    public init(folder: any PeerFolder, owner: ReplicaID) {
        self.folder = folder
        self.owner = owner
    }

    /// Appends `records`; returns the file's new size. Writes nothing when
    /// `records` is empty and the file already has a header.
    @discardableResult
    public func append(_ records: [LogRecord], header: @autoclosure () -> LogHeader) throws -> Int64 {
        var bytes: [UInt8] = []
        let current = try folder.info(fileName)
        var keep: Int64? = nil
        if let current, current.size > 0 {
            let boundary = try LogFileReader(folder: folder).lastLineBoundary(of: fileName, size: current.size)
            if boundary != current.size { keep = boundary }
            if boundary == 0 { bytes += header().encodedLine() }
        } else {
            bytes += header().encodedLine()
        }
        for record in records { bytes += record.encodedLines(owner: owner) }
        if bytes.isEmpty && keep == nil { return current?.size ?? 0 }
        return try folder.append(bytes, to: fileName, truncatingTo: keep)
    }

    /// Replaces the file with `header` followed by the records `produce`
    /// hands out (as many batches as it likes); returns the new size.
    @discardableResult
    public func rewrite(header: LogHeader, records produce: ((_ emit: ([LogRecord]) throws -> Void) throws -> Void)) throws -> Int64 {
        let owner = self.owner
        return try folder.replace(fileName) { write in
            try write(header.encodedLine())
            try withoutActuallyEscaping(write) { write in
                try produce { batch in
                    var bytes: [UInt8] = []
                    for record in batch { bytes += record.encodedLines(owner: owner) }
                    try write(bytes)
                }
            }
        }
    }
}
