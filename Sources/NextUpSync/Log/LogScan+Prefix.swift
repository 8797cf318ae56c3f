/// Cutting a chunk's scan short, for reading a file a few records at a time.
extension LogScan {
    /// The scan up to and including its first `count` records (0 < `count` <
    /// `records.count`): those records, the issues of lines before the end of
    /// the last of them, and that end as ``end`` — a safe place to go on from.
    func prefix(records count: Int) -> LogScan {
        precondition(count > 0 && count < records.count)
        var cut = LogScan(end: recordEnds[count - 1])
        cut.records = Array(records[..<count])
        cut.recordEnds = Array(recordEnds[..<count])
        cut.issues = issues.filter { ($0.offset ?? 0) < cut.end }
        cut.heldBack = heldBack.flatMap { $0 < cut.end ? $0 : nil }
        return cut
    }
}
