import NextUpCore
import Testing

/// `TaskField.precedesInByteOrder` is the byte order of the registers' names,
/// whatever mix of known fields, tag elements and opaque fields it compares.
@Suite struct TaskFieldOrderTests {
    @Test func fieldsSortAsTheirNamesSortByBytes() throws {
        let opaque = ["tag:Work", "tag:é", "uda_estimate", "Title", "a", "zz", "ünïcode", "due_", "created2", "next"]
            .compactMap { TaskField(rawValue: $0) }
        #expect(opaque.count == 10)
        let fields = TaskField.known + opaque
        for a in fields {
            for b in fields {
                #expect(TaskField.precedesInByteOrder(a, b) == a.rawValue.utf8.lexicographicallyPrecedes(b.rawValue.utf8),
                        "\(a.rawValue) before \(b.rawValue)")
            }
        }
        // The known fields' own order (the field table's) is not byte order,
        // so a rank taken from it would fail above.
        #expect(TaskField.known.map(\.rawValue) != TaskField.known.map(\.rawValue).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }
}
