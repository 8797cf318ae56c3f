import CMemoryHints
import GRDB
import GRDBSQLite
import NextUpCore

/// Many rows of the `task` table, each column copied as SQLite gave it into
/// one buffer, for a whole-set read that writes every task once and keeps
/// none (`export`): no ``TaskItem``, no string or dictionary per field.
///
/// Contract: row `i`'s columns are exactly what ``TaskRow/columns`` read for
/// that row (text as its bytes, integers as themselves, NULL as nil); rows
/// are in the order they were appended (a read in key order appends them by
/// id); a row whose id is not a task id is never appended (as
/// ``TaskRow/decode(_:replicas:versions:)`` skips it), and an id in another
/// UUID spelling is kept in ``TaskID``'s canonical form. Read a row through
/// ``TaskColumns``, valid while this buffer is alive. A buffer filled on
/// another thread may follow this one's rows (``join(_:)``): then rows
/// `count..<count + other.count` are the other's.
public final class TaskRowBuffer {
    // Memory managed by hand: a view reads a column through two pointers,
    // with no array to retain and no exclusivity check on a class's stored
    // property (each cost more than reading the column). Read and written
    // from one thread.
    /// Text columns: a 4-byte length and the bytes, unaligned.
    @exclusivity(unchecked) private var bytes: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var byteCapacity: Int
    @exclusivity(unchecked) private var used = 0
    /// ``columnCount`` slots per row: a text column's offset in `bytes`, or
    /// an integer column's value.
    @exclusivity(unchecked) private var slots: UnsafeMutablePointer<Int64>
    /// One bit per column that is NULL, per row.
    @exclusivity(unchecked) private var nulls: UnsafeMutablePointer<UInt32>
    @exclusivity(unchecked) private var rowCapacity: Int
    /// How many rows the buffer holds (its own and those of `following`).
    @exclusivity(unchecked) public private(set) var count = 0
    /// How many of them it holds itself.
    @exclusivity(unchecked) private var ownCount = 0
    /// The rows after its own, read into another buffer (``join(_:)``).
    @exclusivity(unchecked) private var following: TaskRowBuffer?
    /// Whether some row's id was stored in another spelling than its
    /// canonical one: then the rows, appended in the stored ids' order, may
    /// not be in the canonical ids' order.
    @exclusivity(unchecked) private var respelled = false
    /// The replica ids met in the versions columns, each parsed once: for
    /// rows read through the subscript, on one thread (``forEachRow(at:_:)``
    /// reads with a cache of its own).
    private let replicas = UnsafeMutablePointer<VersionsColumn.Replicas>.allocate(capacity: 1)

    /// ``TaskRow/columnCount``: the id, the known fields in table order, `extra`, `versions`.
    let columnCount = TaskRow.columnCount
    /// Whether each column is read as text (else as an integer).
    private let isText: [Bool] = [true] + FieldSpec.table.map { $0.kind == .text } + [true, true]

    /// `byteCapacity`: room for the rows' text at first (the store file's
    /// size bounds it: reserved, not touched, so a whole-set read never
    /// copies the buffer to grow it).
    init(byteCapacity: Int = 1 << 20) {
        self.byteCapacity = max(byteCapacity, 1 << 16)
        bytes = UnsafeMutableRawPointer.allocate(byteCount: self.byteCapacity, alignment: 8)
        rowCapacity = max(1024, self.byteCapacity / 512)
        slots = UnsafeMutablePointer<Int64>.allocate(capacity: rowCapacity * columnCount)
        nulls = UnsafeMutablePointer<UInt32>.allocate(capacity: rowCapacity)
        replicas.initialize(to: VersionsColumn.Replicas())
    }

    deinit {
        replicas.deinitialize(count: 1)
        replicas.deallocate()
        bytes.deallocate()
        slots.deallocate()
        nulls.deallocate()
    }

    /// Row `i`'s columns (valid while the buffer is alive; read on one
    /// thread at a time).
    public subscript(i: Int) -> TaskColumns { row(i, replicas: replicas) }

    /// Row `i`'s columns, its versions read with `replicas`.
    private func row(_ i: Int, replicas: UnsafeMutablePointer<VersionsColumn.Replicas>) -> TaskColumns {
        precondition(i >= 0 && i < count, "row \(i) of \(count)")
        if i >= ownCount { return following!.row(i - ownCount, replicas: replicas) }
        return TaskColumns(replicas: replicas, bytes: UnsafeRawPointer(bytes), slots: UnsafePointer(slots + i * columnCount),
                           nulls: nulls[i], columnCount: columnCount)
    }

    /// Copies the row `statement` is on (its first ``TaskRow/columnCount``
    /// columns are ``TaskRow/columns``); skips a row whose id ``TaskID``
    /// does not read.
    func append(_ statement: OpaquePointer) {
        precondition(following == nil, "append after join")
        guard let idText = sqlite3_column_text(statement, 0) else { return }
        let idBytes = UnsafeBufferPointer(start: idText, count: Int(sqlite3_column_bytes(statement, 0)))
        var canonicalID: String?
        if !CanonicalUUID.isCanonicalLowercase(idBytes) {
            // Another spelling of a UUID is written as TaskID holds it.
            guard let id = TaskID(String(decoding: idBytes, as: UTF8.self)) else { return }
            canonicalID = id.rawValue
            respelled = true
        }
        if ownCount == rowCapacity { growRows() }
        let row = slots + ownCount * columnCount
        var rowNulls: UInt32 = 0
        for i in 0..<columnCount {
            let column = Int32(i)
            if i == 0 {
                if var id = canonicalID {
                    row[0] = Int64(id.withUTF8 { appendText(UnsafeRawBufferPointer($0)) })
                } else {
                    row[0] = Int64(appendText(UnsafeRawBufferPointer(idBytes)))
                }
            } else if isText[i] {
                // NULL has no text; the bytes are asked for after the text, as SQLite wants.
                guard let text = sqlite3_column_text(statement, column) else {
                    rowNulls |= 1 << UInt32(i)
                    row[i] = 0
                    continue
                }
                let n = Int(sqlite3_column_bytes(statement, column))
                row[i] = Int64(appendText(UnsafeRawBufferPointer(start: UnsafeRawPointer(text), count: n)))
            } else if sqlite3_column_type(statement, column) == SQLITE_NULL {
                rowNulls |= 1 << UInt32(i)
                row[i] = 0
            } else {
                row[i] = sqlite3_column_int64(statement, column)
            }
        }
        nulls[ownCount] = rowNulls
        ownCount += 1
        count += 1
    }

    /// Makes `other`'s rows follow this buffer's: row `count + k` becomes
    /// `other`'s row `k`. For the two halves of one read in key order, read
    /// at once into two buffers (this one the first half). Nothing is
    /// appended to either afterwards; `other` is kept alive by this buffer.
    func join(_ other: TaskRowBuffer) {
        precondition(following == nil && other.following == nil, "a buffer joined twice")
        following = other
        count += other.count
        respelled = respelled || other.respelled
    }

    private func growRows() {
        let grown = rowCapacity * 2
        let newSlots = UnsafeMutablePointer<Int64>.allocate(capacity: grown * columnCount)
        newSlots.update(from: slots, count: ownCount * columnCount)
        slots.deallocate()
        slots = newSlots
        let newNulls = UnsafeMutablePointer<UInt32>.allocate(capacity: grown)
        newNulls.update(from: nulls, count: ownCount)
        nulls.deallocate()
        nulls = newNulls
        rowCapacity = grown
    }

    /// Appends a length and the bytes; returns where they start.
    private func appendText(_ text: UnsafeRawBufferPointer) -> Int {
        let need = used + 4 + text.count
        if need > byteCapacity {
            var grown = byteCapacity * 2
            while grown < need { grown *= 2 }
            let moved = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
            moved.copyMemory(from: bytes, byteCount: used)
            bytes.deallocate()
            bytes = moved
            byteCapacity = grown
        }
        let start = used
        bytes.storeBytes(of: UInt32(text.count), toByteOffset: start, as: UInt32.self)
        if let base = text.baseAddress, text.count > 0 { (bytes + start + 4).copyMemory(from: base, byteCount: text.count) }
        used = need
        return start
    }
}

extension TaskRowBuffer {
    /// Hands `body` the rows at `positions` (a part of ``exportOrder()``, or
    /// of the list's order from ``TaskStore/openTaskRows(nowMillis:)``), in
    /// that order, each row's memory asked of the processor a few rows
    /// before it is read. Rows appended in id order and written in another
    /// are spread over the buffer: read cold, each stalled on its cache
    /// misses (export of 100,000 in an order matching the buffer's: 17% less
    /// time).
    ///
    /// May be called on several threads at once once the buffer is filled:
    /// each call reads the versions columns with a replica cache of its own,
    /// and nothing of the buffer is written. The columns handed to `body`
    /// are valid during that call only.
    public func forEachRow(at positions: ArraySlice<Int>, _ body: (TaskColumns) throws -> Void) rethrows {
        var replicas = VersionsColumn.Replicas()
        try withUnsafeMutablePointer(to: &replicas) { replicas in
            for p in positions.indices {
                if p + Self.slotsAhead < positions.endIndex { prefetchSlots(positions[p + Self.slotsAhead]) }
                if p + Self.textsAhead < positions.endIndex { prefetchTexts(positions[p + Self.textsAhead]) }
                try body(row(positions[p], replicas: replicas))
            }
        }
    }

    /// How many rows ahead a row's slots and NULL bits are asked for, and
    /// its text (whose place the slots give) is.
    static let slotsAhead = 12, textsAhead = 6

    /// Asks for row `i`'s slots (and the next row's first, where its text
    /// ends) and its NULL bits.
    private func prefetchSlots(_ i: Int) {
        if i >= ownCount { following?.prefetchSlots(i - ownCount); return }
        let start = UnsafeRawPointer(slots + i * columnCount)
        for offset in stride(from: 0, through: columnCount * 8, by: 64) { nextup_prefetch(start + offset) }
        nextup_prefetch(UnsafeRawPointer(nulls + i))
    }

    /// Asks for row `i`'s text: from its id (the first text appended for
    /// it) to where the next appended row's begins.
    private func prefetchTexts(_ i: Int) {
        if i >= ownCount { following?.prefetchTexts(i - ownCount); return }
        let start = Int(slots[i * columnCount])
        let end = i + 1 < ownCount ? Int(slots[(i + 1) * columnCount]) : used
        guard end > start, end - start < 1 << 16 else { return }
        for offset in stride(from: start, to: end, by: 64) { nextup_prefetch(UnsafeRawPointer(bytes + offset)) }
    }

    /// The positions of the rows in the order `export` writes them: Next Up
    /// first, in its order (``TaskOrdering/nextUpOrder(_:)``: open tasks with
    /// an order key, by key, then id), then every other row oldest first
    /// (``TaskOrdering/creationOrder(_:)``: by `created`, then id). The same
    /// rules on the columns, compared as bytes (order keys and ids are ASCII,
    /// so byte order is their string order); a test holds it to Core's.
    public func exportOrder() -> [Int] {
        func idPrecedes(_ i: Int, _ j: Int) -> Bool { self[i].id.lexicographicallyPrecedes(self[j].id) }
        var next: [Int] = []
        var rest: [(created: Int64, row: Int)] = []
        rest.reserveCapacity(count)
        for i in 0..<count {
            let row = self[i]
            if row.isNextUp { next.append(i) } else { rest.append((row.integer(.created) ?? 0, i)) }
        }
        next.sort { i, j in
            let a = self[i].text(.nextUp)!, b = self[j].text(.nextUp)!
            return a.elementsEqual(b) ? idPrecedes(i, j) : a.lexicographicallyPrecedes(b)
        }
        if let sorted = Self.sortedByCreation(rest, rowsInIDOrder: !respelled) { return next + sorted }
        rest.sort { a, b in a.created != b.created ? a.created < b.created : idPrecedes(a.row, b.row) }
        return next + rest.map(\.row)
    }

    /// The rows of `rest` by creation time, then id, as integers: each
    /// row's time since the oldest and its position packed into one
    /// 64-bit key, so that a tie on the time falls to the position — the
    /// id's order, when the rows are in id order (`rowsInIDOrder`). Nil
    /// when they are not, or when the times span too much for the key (then
    /// the rows are compared one by one). Sorting the keys takes a fifth of
    /// the time of comparing pairs through a closure (100,000 rows: 13 ms).
    static func sortedByCreation(_ rest: [(created: Int64, row: Int)], rowsInIDOrder: Bool) -> [Int]? {
        guard rowsInIDOrder, let oldest = rest.lazy.map(\.created).min(), let newest = rest.lazy.map(\.created).max(),
              let lastRow = rest.lazy.map(\.row).max() else { return rowsInIDOrder ? [] : nil }
        let rowBits = UInt64(Int.bitWidth - lastRow.leadingZeroBitCount)
        let (span, overflow) = newest.subtractingReportingOverflow(oldest)
        guard !overflow, rowBits < 64, UInt64(span) < (1 as UInt64) << (64 - rowBits) else { return nil }
        var keys = rest.map { UInt64($0.created &- oldest) << rowBits | UInt64($0.row) }
        keys.sort()
        let mask = ((1 as UInt64) << rowBits) &- 1
        return keys.map { Int($0 & mask) }
    }
}
