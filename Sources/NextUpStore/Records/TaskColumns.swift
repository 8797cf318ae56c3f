import NextUpCore

/// One task's stored columns in a ``TaskRowBuffer``, read in place: what a
/// ``TaskItem`` read from the same row would hold, without building it.
///
/// Contract: for a row the store wrote, ``text(_:)`` and ``integer(_:)``
/// give the known field's value in its wire shape as
/// ``TaskItem/value(of:)`` does (text as UTF-8 bytes, a boolean as 0 or 1,
/// unset as nil), ``extra`` gives ``TaskItem/extra``, ``forEachVersion(_:)``
/// gives ``TaskItem/versions``' entries and ``TaskItem/modified``, and
/// ``id`` the canonical id. Valid only while its buffer is alive (one
/// handed out by ``TaskRowBuffer/forEachRow(at:_:)``: during that call).
public struct TaskColumns {
    /// The replica ids already parsed, of the reading this row is part of.
    let replicas: UnsafeMutablePointer<VersionsColumn.Replicas>
    let bytes: UnsafeRawPointer
    let slots: UnsafePointer<Int64>
    let nulls: UInt32
    let columnCount: Int

    private func text(column: Int) -> UnsafeBufferPointer<UInt8>? {
        if nulls & (1 << UInt32(column)) != 0 { return nil }
        let start = Int(slots[column])
        let n = Int(bytes.loadUnaligned(fromByteOffset: start, as: UInt32.self))
        return UnsafeBufferPointer(start: (bytes + start + 4).assumingMemoryBound(to: UInt8.self), count: n)
    }

    /// The id's canonical text.
    public var id: UnsafeBufferPointer<UInt8> { text(column: 0)! }

    /// A text-kind known field's bytes, nil when unset.
    public func text(_ field: TaskField) -> UnsafeBufferPointer<UInt8>? { text(column: field.tableIndex! + 1) }

    /// An integer- or boolean-kind known field's value (a boolean as 0 or 1),
    /// nil when unset.
    public func integer(_ field: TaskField) -> Int64? {
        let column = field.tableIndex! + 1
        return nulls & (1 << UInt32(column)) != 0 ? nil : slots[column]
    }

    /// The registers that are not known fields (``TaskItem/extra``); empty
    /// for almost every row.
    public var extra: [TaskField: FieldValue] {
        guard let text = text(column: columnCount - 2) else { return [:] }
        return ExtraRegisters.decode(String(decoding: text, as: UTF8.self))
    }

    /// Every field version of the row (``TaskItem/versions``' entries, in
    /// the column's order); returns the newest timestamp
    /// (``TaskItem/modified``), or zero when there is none.
    public func forEachVersion(_ body: (TaskField, Version) -> Void) -> HybridTimestamp {
        guard let text = text(column: columnCount - 1) else { return .zero }
        return VersionsColumn.forEachVersion(text, replicas: &replicas.pointee, body)
    }

    /// The task with its id and ``TaskOrdering/fields`` only: what the
    /// lists' orders read, without the texts they do not.
    public var orderingItem: TaskItem {
        // A buffer holds only rows whose id reads (TaskRowBuffer.append).
        var item = TaskItem(id: TaskID(String(decoding: id, as: UTF8.self))!)
        for field in TaskOrdering.fields {
            switch field.spec!.kind {
            case .text: if let bytes = text(field) { item.restore(field, to: .string(String(decoding: bytes, as: UTF8.self))) }
            case .integer: if let n = integer(field) { item.restore(field, to: .int(n)) }
            case .boolean: if let n = integer(field) { item.restore(field, to: .bool(n != 0)) }
            }
        }
        return item
    }

    /// Whether the task is in Next Up (``TaskOrdering/isNextUp(_:)``: open,
    /// with an order key).
    var isNextUp: Bool {
        text(.nextUp) != nil && integer(.done) == nil && (integer(.deleted) ?? 0) == 0
    }
}
