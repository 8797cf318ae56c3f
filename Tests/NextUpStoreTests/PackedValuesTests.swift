import Foundation
import GRDB
import NextUpCore
import NextUpTestSupport
import Testing
@testable import NextUpStore

/// Values packed to be bound later (``PackedValues``) bind as the same
/// values bound at once through ``SQLiteBindings`` do.
@Suite struct PackedValuesTests {
    enum Value: Equatable {
        case text(String?), int(Int64?), bool(Bool?), null
    }

    struct Values: Packable {
        let values: [Value]
        func pack<V: ParameterValues>(_ v: inout V) throws(V.Failure) {
            for value in values {
                switch value {
                case .text(let s): try v.text(s)
                case .int(let n): try v.int(n)
                case .bool(let b): try v.bool(b)
                case .null: try v.null()
                }
            }
        }
    }

    static func randomValues(_ random: inout SeededRandom) -> [Value] {
        let texts = ["", "a", "é", "日本語 ☕", String(repeating: "x", count: 3_000), "\u{0}inner nul", "🧪🧪"]
        return (0..<Int.random(in: 1...40, using: &random)).map { _ -> Value in
            switch Int.random(in: 0..<7, using: &random) {
            case 0: return .text(texts.randomElement(using: &random)!)
            case 1: return .text(nil)
            case 2: return .int(Int64.random(in: .min ... .max, using: &random))
            case 3: return .int(random.chance(0.5) ? nil : 0)
            case 4: return .bool(random.chance(0.2) ? nil : random.chance(0.5))
            case 5: return .null
            default: return .text(String(Int.random(in: 0..<1_000_000, using: &random)))
            }
        }
    }

    @Test func packedValuesBindAsValuesBoundAtOnce() throws {
        let queue = try DatabaseQueue()
        var random = SeededRandom(seed: 0x5EED_7A11)
        try queue.write { db in
            for _ in 0..<300 {
                let values = Self.randomValues(&random)
                let sql = "SELECT " + Array(repeating: "?", count: values.count).joined(separator: ", ")
                func row(packed: Bool) throws -> [DatabaseValue] {
                    let statement = try db.makeStatement(sql: sql)
                    var out: [DatabaseValue] = []
                    // The row is read while the values are bound (they are cleared on return).
                    let pack = PackedValues(Values(values: values))
                    #expect(pack.count == values.count)
                    let read: (inout SQLiteBindings) throws -> Void = { b in
                        if packed {
                            let middle = values.count / 2
                            try pack.bind(&b, 0..<middle)
                            try pack.bind(&b, middle..<values.count)
                        } else {
                            try Values(values: values).pack(&b)
                        }
                    }
                    try SQLiteBindings.execute(statement, arenaBytes: packed ? 0 : SQLiteBindings.arenaBytes) { b in
                        try read(&b)
                        let cursor = try Row.fetchCursor(statement)
                        if let r = try cursor.next() { out = Array(r.databaseValues) }
                    }
                    return out
                }
                let (direct, packed) = (try row(packed: false), try row(packed: true))
                #expect(direct.count == values.count)
                #expect(direct == packed)
                for (i, value) in values.enumerated() {
                    if case .text(let s?) = value {
                        #expect(PackedValues(Values(values: values)).text(at: i) == s)
                    }
                }
            }
        }
    }
}
