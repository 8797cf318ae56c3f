import NextUpCore

/// Reads one log file of the peer folder in bounded chunks, so that a large
/// file never has to fit in memory at once and a monstrous line costs only a
/// skip.
public struct LogFileReader {
    public let folder: any PeerFolder
    /// Bytes read at a time; larger than ``LogFormat/maxLineLength`` so that a
    /// legitimate line always fits in one chunk.
    public let chunkSize: Int
    /// Passed to every ``LogDecoder``: versions later than this are refused.
    public let notAfter: HybridTimestamp?

    /// Bytes read and decoded at a step (at most ``chunkSize``), so that a
    /// large log is merged in steps; a step with no whole line is read again
    /// as a whole chunk.
    public let stepSize: Int

    public init(folder: any PeerFolder, chunkSize: Int = 2 * LogFormat.maxLineLength, stepSize: Int = 1 << 20, notAfter: HybridTimestamp? = nil) {
        precondition(chunkSize > LogFormat.maxLineLength && stepSize > 0)
        self.folder = folder
        self.chunkSize = chunkSize
        self.stepSize = min(stepSize, chunkSize)
        self.notAfter = notAfter
    }

    /// Reads and decodes the header of `name`.
    public func header(of name: String) -> Result<(LogHeader, Int64), LogIssue> {
        do {
            // A header is a few hundred bytes: read a little, more only if needed.
            var prefix = try folder.read(name, at: 0, count: 4_096)
            if prefix.count == 4_096 && !prefix.contains(0x0A) {
                prefix = try folder.read(name, at: 0, count: LogFormat.maxHeaderLength)
            }
            return LogDecoder.header(in: prefix, file: name)
        } catch {
            return .failure(LogIssue(file: name, offset: nil, kind: .unreadable(String(describing: error))))
        }
    }

    /// What one pass over a file found beyond its records.
    public struct Outcome: Sendable {
        /// Just past the last complete line read: the new cursor.
        public var end: Int64
        /// A line the file ends inside of, if any (reported, not consumed).
        public var incompleteTail: LogIssue?
        /// The first line held back (``LogScan/heldBack``), if any: a cursor
        /// goes no further than this.
        public var heldBack: Int64?

        /// Where a cursor may stand after this pass.
        public var cursorEnd: Int64 { min(end, heldBack ?? end) }
    }

    /// Reads every complete line from `offset` (a line boundary after the
    /// header) up to `size`, a step at a time, handing the decoded records and
    /// issues of each step's complete lines to `consume` in file order; each
    /// scan's ``LogScan/end`` is a safe cursor once that scan is merged,
    /// unless a line was held back (each scan carries the first one of the
    /// pass so far in ``LogScan/heldBack``).
    public func readLines(of name: String, owner: ReplicaID, from offset: Int64, upTo size: Int64,
                          consume: (LogScan) throws -> Void) throws -> Outcome {
        let decoder = LogDecoder(file: name, owner: owner, notAfter: notAfter)
        var position = offset
        var heldBack: Int64?
        while position < size {
            var bytes = try folder.read(name, at: position, count: Int(min(Int64(stepSize), size - position)))
            if bytes.isEmpty { break }
            var scan = decoder.scan(bytes, at: position)
            // No complete line in a step short of a chunk: read a whole chunk
            // (a line of legitimate length fits in one).
            if scan.end == position && bytes.count < chunkSize && position + Int64(bytes.count) < size {
                bytes = try folder.read(name, at: position, count: Int(min(Int64(chunkSize), size - position)))
                if bytes.isEmpty { break }
                scan = decoder.scan(bytes, at: position)
            }
            if scan.end > position {
                position = scan.end
                heldBack = heldBack ?? scan.heldBack
                scan.heldBack = heldBack
                try consume(scan)
                continue
            }
            // No complete line in a whole chunk.
            if bytes.count < chunkSize || position + Int64(bytes.count) >= size {
                return Outcome(end: position, incompleteTail: LogIssue(file: name, offset: position, kind: .incompleteLastLine(bytes: size - position)), heldBack: heldBack)
            }
            // A line longer than a chunk: find its end and skip it.
            guard let lineEnd = try findNewline(in: name, from: position + Int64(bytes.count), upTo: size) else {
                return Outcome(end: position, incompleteTail: LogIssue(file: name, offset: position, kind: .incompleteLastLine(bytes: size - position)), heldBack: heldBack)
            }
            var skipped = LogScan(end: lineEnd + 1)
            skipped.heldBack = heldBack
            skipped.issues.append(LogIssue(file: name, offset: position, kind: .lineTooLong(bytes: lineEnd - position)))
            try consume(skipped)
            position = lineEnd + 1
        }
        return Outcome(end: position, incompleteTail: nil, heldBack: heldBack)
    }

    private func findNewline(in name: String, from start: Int64, upTo size: Int64) throws -> Int64? {
        var position = start
        while position < size {
            let bytes = try folder.read(name, at: position, count: Int(min(Int64(chunkSize), size - position)))
            if bytes.isEmpty { return nil }
            if let index = bytes.firstIndex(of: 0x0A) { return position + Int64(index) }
            position += Int64(bytes.count)
        }
        return nil
    }

    /// The offset just past the last newline of `name` at or before `size`
    /// (0 when there is none): where a writer cuts a torn tail back to.
    public func lastLineBoundary(of name: String, size: Int64) throws -> Int64 {
        // The usual case, a file ending with its newline, costs one byte.
        if size > 0, try folder.read(name, at: size - 1, count: 1) == [0x0A] { return size }
        var end = size
        let block: Int64 = 64 * 1024
        while end > 0 {
            let start = max(0, end - block)
            let bytes = try folder.read(name, at: start, count: Int(end - start))
            if let index = bytes.lastIndex(of: 0x0A) { return start + Int64(index) + 1 }
            end = start
        }
        return 0
    }
}
