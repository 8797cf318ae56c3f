import Foundation
import NextUpCore

/// The `extra` column: the values of a task's registers that are not known
/// fields (tag elements and opaque fields), as one JSON object
/// `{"<name>":<value>,…}` with sorted keys; NULL when there are none. Their
/// versions live in the `versions` column with every other field's.
enum ExtraRegisters {
    static func encode(_ extra: [TaskField: FieldValue]) -> String {
        let pairs = extra.map { ($0.key.rawValue, $0.value) }.sorted { $0.0 < $1.0 }
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (i, (name, value)) in pairs.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.appendString(name, to: &out)
            out.append(UInt8(ascii: ":"))
            JSONText.appendValue(value, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Registers with a malformed name or a value the name does not accept
    /// are skipped; names are read in one spelling (``TaskText/normalized(_:)``),
    /// as a store written before normalisation may hold another.
    static func decode(_ text: String) -> [TaskField: FieldValue] {
        guard let object = try? JSONDecoder().decode([String: FieldValue].self, from: Data(text.utf8)) else { return [:] }
        var out: [TaskField: FieldValue] = [:]
        for (name, value) in object {
            guard let field = TaskField(rawValue: TaskText.normalized(name)), !field.isKnown, field.accepts(value) else { continue }
            out[field] = value
        }
        return out
    }
}
