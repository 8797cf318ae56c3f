import NextUpCore

extension ChangeListJSON {
    /// Reads a change list in exactly the form ``encode(_:)`` writes — `[{"f":…,"v":…,"h":…,"r":…},…]`, those keys in that order, no
    /// white space — on UTF-8 bytes. Nil for anything else (rows written by
    /// an older nextup through JSONEncoder, whose key order varies), which
    /// ``decode(task:changes:)`` then reads with JSONDecoder. (When the
    /// outbox held values, an upload read every row: JSONDecoder took 57% of
    /// the first sync of 100,000 tasks.)
    ///
    /// Contract: when not nil, the result equals what the JSONDecoder path
    /// gives for the same text (entries with an unknown field or a malformed
    /// replica id are dropped the same way).
    static func decodeWritten(task: TaskID, changes: String) -> [FieldChange]? {
        var text = changes
        return text.withUTF8 { bytes -> [FieldChange]? in
            var reader = JSONByteReader(bytes: bytes)
            guard reader.take("[") else { return nil }
            var out: [FieldChange] = []
            if reader.take("]") { return reader.atEnd ? out : nil }
            while true {
                guard reader.take(#"{"f":"#), let f = reader.string(),
                      reader.take(#","v":"#), let v = reader.value(),
                      reader.take(#","h":"#), let h = reader.integer(),
                      reader.take(#","r":"#), let r = reader.string(),
                      reader.take("}") else { return nil }
                if let field = TaskField(rawValue: f), let replica = ReplicaID(r) {
                    out.append(FieldChange(task: task, field: field, value: v,
                                           version: Version(timestamp: HybridTimestamp(rawValue: h), replica: replica)))
                }
                if reader.take(",") { continue }
                return reader.take("]") && reader.atEnd ? out : nil
            }
        }
    }
}
