import NextUpCore
import NextUpStore

/// A task as ``TaskJSONWriter`` reads it: each known field's value in its
/// wire shape (``TaskItem/value(of:)``, the field table's), the registers
/// that are not known fields, and the field versions. Two kinds of task
/// give it: a ``TaskItem`` (`list --json`, `next --json`, `show --json`,
/// `add --json`) and a stored row read in place, ``TaskColumns`` (`export`);
/// both derive every value from the field table, so the one writer gives
/// the same object for the same task (a test holds them together).
protocol TaskJSONSource {
    /// The id's canonical text.
    func withID<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R
    /// A text-kind known field's UTF-8, nil when unset.
    func withText<R>(_ field: TaskField, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R
    /// An integer- or boolean-kind known field's value (a boolean as 0 or
    /// 1), nil when unset.
    func integer(_ field: TaskField) -> Int64?
    /// The registers that are not known fields (``TaskItem/extra``).
    var extra: [TaskField: FieldValue] { get }
    /// Every field version (``TaskItem/versions``' entries, in any order);
    /// returns the newest timestamp (``TaskItem/modified``).
    func forEachVersion(_ body: (TaskField, Version) -> Void) -> HybridTimestamp
}

extension TaskItem: TaskJSONSource {
    func withID<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var text = id.rawValue
        return text.withUTF8(body)
    }

    func withText<R>(_ field: TaskField, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        guard case .string(var text) = value(of: field) else { return body(nil) }
        return text.withUTF8 { body($0) }
    }

    func integer(_ field: TaskField) -> Int64? {
        switch value(of: field) {
        case .int(let n): return n
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }

    func forEachVersion(_ body: (TaskField, Version) -> Void) -> HybridTimestamp {
        var newest = HybridTimestamp.zero
        for (field, version) in versions {
            body(field, version)
            newest = max(newest, version.timestamp)
        }
        return newest
    }
}

extension TaskColumns: TaskJSONSource {
    func withID<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R { body(id) }

    func withText<R>(_ field: TaskField, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R { body(text(field)) }
}
