import NextUpCore

extension TaskID {
    /// The namespace of nextup's name-based task ids for VTODO `UID`s.
    static let vtodoNamespace: [UInt8] = [0x6e, 0x78, 0x75, 0x70, 0x2d, 0x76, 0x74, 0x6f, 0x64, 0x6f, 0x2d, 0x75, 0x69, 0x64, 0x21, 0x00]

    /// The task a VTODO `UID` names, the same on every machine (DESIGN.md §5b).
    ///
    /// Contract: a `UID` that is a task id in its canonical spelling (a task
    /// nextup made and wrote out) is that task's id; any other `UID` maps to
    /// the name-based UUID (version 5, SHA-1, RFC 9562) of its UTF-8 bytes
    /// in nextup's namespace. Two machines bridging the same calendar
    /// therefore name a phone's task alike and never make two of it.
    public static func forVTodoUID(_ uid: String) -> TaskID {
        if let id = TaskID(uid), id.rawValue == uid { return id }
        var digest = Array(SHA1.hash(vtodoNamespace + Array(uid.utf8)).prefix(16))
        digest[6] = digest[6] & 0x0F | 0x50
        digest[8] = digest[8] & 0x3F | 0x80
        let hex = digest.map { b in let s = String(b, radix: 16); return b < 16 ? "0" + s : s }.joined()
        let c = Array(hex)
        return TaskID(String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-" + String(c[16..<20]) + "-" + String(c[20..<32]))!
    }

    /// The `source` of a task made from a VTODO created elsewhere.
    public static let vtodoSource = "vtodo"
}

extension TaskItem {
    /// The `UID` of this task's VTODO: the foreign `UID` it was made from
    /// (its `external_id`, when its `source` is ``TaskID/vtodoSource``), else its id.
    public var vtodoUID: String {
        if source == TaskID.vtodoSource, let externalID, !externalID.isEmpty { return externalID }
        return id.rawValue
    }
}
