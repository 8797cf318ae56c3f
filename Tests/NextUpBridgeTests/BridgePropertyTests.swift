import Foundation
import NextUpCore
import NextUpStore
import NextUpTestSupport
import PropertyBased
import Testing
@testable import NextUpBridge

/// The bridge alone, no server: random sequences of nextup edits, foreign
/// rewrites of the files (with and without the X- properties, properties
/// reordered, lines re-folded or unfolded, LF or CRLF) and bridge cycles
/// converge — the store holds, per field, the last change made on either
/// side, the files say what the store says, a further cycle is quiet — and
/// an attribute the foreign side did not change is never cleared. A property
/// changed on both sides between two cycles goes to the newer change: the
/// foreign one when its `LAST-MODIFIED` is later than nextup's edit.
@Suite struct BridgePropertyTests {
    static let foreignFields: [TaskField] = [.title, .notes, .importance, .due, .tag("alpha"), .tag("beta")]
    static let localFields: [TaskField] = [.title, .urgency, .importance, .duration, .category, .due, .tag("alpha")]
    static let titles = ["Pay rent", "a, b; c \\ d", "漢字 🧪 café", String(repeating: "long title ", count: 12) + "end"]
    static let notesPool = ["", "one line", "two\nlines, with; punctuation \\", "ünïcödé"]

    static func pick<T>(_ values: [T], _ rng: inout SeededRandom) -> T { values[Int(rng.next() % UInt64(values.count))] }

    static func localValue(_ field: TaskField, _ rng: inout SeededRandom) -> FieldValue {
        switch field {
        case .title: return .string(pick(titles, &rng))
        case .urgency: return pick([.null, .string("urgent"), .string("not-urgent")], &rng)
        case .importance: return pick([.null, .int(1), .int(2), .int(3)], &rng)
        case .duration: return pick([.null, .int(30), .int(90)], &rng)
        case .category: return pick([.null, .string("Admin"), .string("Deep Work")], &rng)
        case .due: return pick([.null, .string("2026-12-01"), .string("2027-01-15")], &rng)
        default: return .bool(rng.chance(0.5))
        }
    }

    static func foreignValue(_ field: TaskField, _ rng: inout SeededRandom) -> FieldValue {
        field == .notes ? .string(pick(notesPool, &rng)) : localValue(field, &rng)
    }

    /// Sets the property for `field` to `value` in a VTODO's properties.
    static func set(_ field: TaskField, _ value: FieldValue, in props: inout [ICalProperty]) {
        switch field {
        case .title:
            props.removeAll { $0.name == "SUMMARY" }
            props.append(ICalProperty(name: "SUMMARY", text: value.stringValue!))
        case .notes:
            props.removeAll { $0.name == "DESCRIPTION" }
            if let s = value.stringValue, !s.isEmpty { props.append(ICalProperty(name: "DESCRIPTION", text: s)) }
        case .importance:
            props.removeAll { $0.name == "PRIORITY" }
            if let i = value.intValue { props.append(ICalProperty(name: "PRIORITY", value: ["9", "5", "1"][Int(i) - 1])) }
        case .due:
            props.removeAll { $0.name == "DUE" }
            if let s = value.stringValue {
                props.append(ICalProperty(name: "DUE", parameters: [ICalParameter(name: "VALUE", values: ["DATE"])], value: s.replacingOccurrences(of: "-", with: "")))
            }
        default:
            // A tag: its name added to or taken out of CATEGORIES, in any order.
            let name = field.tagName!
            var list = props.filter { $0.name == "CATEGORIES" }.flatMap(\.textList).filter { $0 != name }
            if value == .bool(true) { list.insert(name, at: name.count % (list.count + 1)) }
            props.removeAll { $0.name == "CATEGORIES" }
            if !list.isEmpty { props.append(ICalProperty(name: "CATEGORIES", value: list.map(ICalText.escape).joined(separator: ","))) }
        }
    }

    /// Re-serialises a calendar as another client might: CRLF or LF, folded
    /// at another width or not at all.
    static func reshape(_ calendar: ICalComponent, _ rng: inout SeededRandom) -> String {
        let text = calendar.serialized()
        let logical = text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n").filter { !$0.isEmpty }
        switch rng.next() % 4 {
        case 0: return text
        case 1: return text.replacingOccurrences(of: "\r\n", with: "\n")
        case 2: return logical.joined(separator: "\n") + "\n"
        default:
            let width = 20 + Int(rng.next() % 50)
            return logical.map { ICalText.fold($0, limit: width) }.joined(separator: "\r\n") + "\r\n"
        }
    }

    /// 40 fixed seeds and one found in random ones in `make test`; `NEXTUP_SCHEDULES` adds that many random
    /// ones (`make test-more`) and `NEXTUP_BRIDGE_SEED` runs only that seed.
    @Test func randomEditsAndForeignRewritesConverge() async {
        let environment = ProcessInfo.processInfo.environment
        if let seed = environment["NEXTUP_BRIDGE_SEED"].flatMap(UInt64.init) {
            var rng = SeededRandom(seed: seed)
            do { try Self.run(&rng) } catch { Issue.record("seed \(seed): \(error)") }
            return
        }
        // 4141806788994189366: a client put a tag first in CATEGORIES of a file without
        // X-NEXTUP-CATEGORY, and the values the task took from the calendar read it as the category.
        for seed in Array(UInt64(1)...40) + [4141806788994189366] {
            var rng = SeededRandom(seed: seed)
            do { try Self.run(&rng) } catch { Issue.record("seed \(seed): \(error)") }
        }
        if let more = environment["NEXTUP_SCHEDULES"].flatMap(Int.init), more > 0 {
            await propertyCheck(count: more, input: Gen.int(in: 0...Int.max)) { seed in
                var rng = SeededRandom(seed: UInt64(seed))
                do { try Self.run(&rng) } catch { Issue.record("seed \(seed): \(error)") }
            }
        }
    }

    static func run(_ rng: inout SeededRandom) throws {
        let tmp = TemporaryFolder()
        let vdir = tmp.path("vdir")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        let store = try TaskStore.open(StoreLocation(folder: tmp.path("store")))
        // A file system clock that never passes a file's time by a tick: the
        // bridge never trusts a stamp, so a rewrite in place of the same size
        // right after its own write is read whatever the real clock did.
        let bridge = VdirBridge(store: store, folder: vdir, afterReading: nil, fileClock: { 0 })
        var model: [TaskID: [TaskField: FieldValue]] = [:]
        // In the order made (their ids are random): a seed replays the same edits.
        var ids: [TaskID] = []
        for n in 0..<3 {
            let task = try store.add(TaskDraft(title: "task \(n)"))
            ids.append(task.id)
            var fields: [(TaskField, FieldValue)] = []
            for field in localFields where rng.chance(0.7) { fields.append((field, localValue(field, &rng))) }
            let result = try store.edit(task.id, set: fields, nextUp: rng.chance(0.5))
            model[task.id] = Dictionary(uniqueKeysWithValues: (localFields + [.notes, .nextUp, .tag("beta")]).map { ($0, result.task.value(of: $0)) })
        }
        _ = try bridge.cycle()
        // What the files said at the last cycle, and what they say now, in nextup's terms.
        var baseline = model.mapValues { $0.filter { foreignFields.contains($0.key) } }
        var fileState = baseline
        var phoneNewer: [TaskID: Bool] = [:]
        func cycleModel() {
            for (task, file) in fileState {
                for (field, value) in file where value != baseline[task]![field] {
                    let localToo = model[task]![field] != baseline[task]![field]
                    if !localToo || phoneNewer[task] == true { model[task]![field] = value }
                }
            }
            baseline = model.mapValues { $0.filter { foreignFields.contains($0.key) } }
            fileState = baseline
        }
        var history: [String] = []
        var phoneEdits: Int64 = 0
        for _ in 0..<24 {
            let id = pick(ids, &rng)
            switch rng.next() % 8 {
            case 0, 1, 2:
                let field = pick(localFields, &rng)
                let value = localValue(field, &rng)
                let result = try store.edit(id, set: [(field, value)])
                model[id]![field] = result.task.value(of: field)
                history.append("local \(id.short) \(field)=\(value)")
            case 3:
                let result = try store.edit(id, set: [], nextUp: rng.chance(0.5))
                model[id]![.nextUp] = result.task.value(of: .nextUp)
                history.append("local \(id.short) next_up=\(result.task.value(of: .nextUp))")
            case 4, 5:
                let url = vdir.appendingPathComponent("\(id.rawValue).ics")
                var calendar = try ICalComponent.parse([UInt8](try Data(contentsOf: url)))[0]
                let index = calendar.components.firstIndex { $0.name == "VTODO" }!
                var props = calendar.components[index].properties
                let drop = rng.chance(0.6)
                if drop { props.removeAll { $0.name.hasPrefix("X-") } }
                var changed: [String] = []
                for field in foreignFields where rng.chance(0.4) {
                    let value = foreignValue(field, &rng)
                    set(field, value, in: &props)
                    fileState[id]![field] = value
                    changed.append("\(field)=\(value)")
                }
                // A phone's edit stamped later than anything nextup did, or long ago.
                let newer = rng.chance(0.5)
                phoneNewer[id] = newer
                props.removeAll { $0.name == "LAST-MODIFIED" }
                // Each later edit stamped a second after the one before, as a phone's clock does.
                phoneEdits += 1
                props.append(ICalProperty(name: "LAST-MODIFIED", value: newer ? ICalDate.formatUTC(millis: Int64(Date().timeIntervalSince1970 * 1000) + 86_400_000 + phoneEdits * 1_000) : "20000101T000000Z"))
                props.shuffle(using: &rng)
                calendar.components[index].properties = props
                try Data(reshape(calendar, &rng).utf8).write(to: url)
                history.append("foreign \(id.short) drop=\(drop) newer=\(newer) \(changed)")
            default:
                let report = try bridge.cycle()
                #expect(report.skipped.isEmpty, "\(report.skipped)")
                cycleModel()
                history.append("cycle")
            }
        }
        _ = try bridge.cycle()
        cycleModel()
        _ = try bridge.cycle()
        let quiet = try bridge.cycle()
        #expect(quiet.written == 0 && !quiet.changedStore, "\(history)")
        for id in ids {
            let task = try #require(try store.task(id))
            for (field, value) in model[id]! {
                #expect(task.value(of: field) == value, "\(id.short) \(field): \(task.value(of: field)) ≠ \(value)\n\(history.joined(separator: "\n"))")
            }
            let bytes = [UInt8](try Data(contentsOf: vdir.appendingPathComponent("\(id.rawValue).ics")))
            // The file says what the task says: nothing left to patch in.
            #expect(ICalComponent.patched(bytes, for: task) == nil, "\(String(decoding: bytes, as: UTF8.self))")
        }
    }
}
