import NextUpTestSupport
import NextUpCore

/// One random user action on a replica, as the TUI or the CLI would do it.
enum TaskOperation: CustomStringConvertible {
    case add(String, nextUp: Bool)
    case set(Int, TaskField, FieldValue)
    case complete(Int)
    case reopen(Int)
    case delete(Int)
    case restore(Int)
    case toNextUp(Int)
    case fromNextUp(Int)
    case move(Int, by: Int)

    var description: String {
        switch self {
        case .add(let t, let n): return "add(\(t), next: \(n))"
        case .set(let i, let f, let v): return "set(#\(i), \(f.rawValue) = \(v))"
        case .complete(let i): return "complete(#\(i))"
        case .reopen(let i): return "reopen(#\(i))"
        case .delete(let i): return "delete(#\(i))"
        case .restore(let i): return "restore(#\(i))"
        case .toNextUp(let i): return "toNextUp(#\(i))"
        case .fromNextUp(let i): return "fromNextUp(#\(i))"
        case .move(let i, let by): return "move(#\(i), by: \(by))"
        }
    }

    /// The place that moves `id` by `offset` places in `list` (Next Up in its
    /// order), as pressing `J`/`K` that often would; nil when it stays.
    static func place(moving id: TaskID, by offset: Int, in list: [TaskItem]) -> NextUpPlace? {
        guard let from = list.firstIndex(where: { $0.id == id }) else { return nil }
        let to = min(max(from + offset, 0), list.count - 1)
        if to == from { return nil }
        return to > from ? .after(list[to].id) : .before(list[to].id)
    }

    static let editableFields: [TaskField] = [.title, .notes, .urgency, .importance, .duration, .category, .due]

    static func randomValue(for field: TaskField, using rng: inout SeededRandom) -> FieldValue {
        let clear = rng.chance(0.25)
        switch field {
        case .title: return .string(["Pay rent", "Call Ana", "Write report", "Fix bike", "Read paper"].randomElement(using: &rng)! + " \(Int.random(in: 0..<100, using: &rng))")
        case .notes: return .string(clear ? "" : ["line one\nline two", "ünïcödé ✓ 漢字", "quote \" and \\ backslash"].randomElement(using: &rng)!)
        case .urgency: return clear ? .null : .string(["urgent", "not-urgent"].randomElement(using: &rng)!)
        case .importance: return clear ? .null : .int(Int64.random(in: 1...3, using: &rng))
        case .duration: return clear ? .null : .int(Int64.random(in: 1...10_080, using: &rng))
        case .category: return clear ? .null : .string(["Essentials", "Deep Work", "Admin", "Learning", "Recharge"].randomElement(using: &rng)!)
        case .due: return clear ? .null : .string("2026-\(String(format: "%02d", Int.random(in: 1...12, using: &rng)))-\(String(format: "%02d", Int.random(in: 1...28, using: &rng)))")
        default:
            // A tag element: added (most of the time) or removed.
            return field.tagName != nil ? .bool(!rng.chance(0.35)) : .null
        }
    }

    /// A random operation; `known` is how many tasks the replica knows.
    static func random(known: Int, using rng: inout SeededRandom) -> TaskOperation {
        if known == 0 || rng.chance(0.15) { return .add("Task \(Int.random(in: 0..<1_000, using: &rng))", nextUp: rng.chance(0.3)) }
        let i = Int.random(in: 0..<known, using: &rng)
        switch Int.random(in: 0..<10, using: &rng) {
        case 0...3:
            // Tags are registers like any field: concurrent additions must all survive.
            let field = rng.chance(0.25) ? TaskField.tag(["Work", "home", "Errand", "日本"].randomElement(using: &rng)!)
                                         : editableFields.randomElement(using: &rng)!
            return .set(i, field, randomValue(for: field, using: &rng))
        case 4: return rng.chance(0.5) ? .complete(i) : .reopen(i)
        case 5: return rng.chance(0.6) ? .delete(i) : .restore(i)
        case 6, 7: return rng.chance(0.6) ? .toNextUp(i) : .fromNextUp(i)
        default: return .move(i, by: [-2, -1, 1, 2].randomElement(using: &rng)!)
        }
    }
}
