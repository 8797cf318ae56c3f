import Foundation
import NextUpCore
import NextUpStore
import NextUpTestSupport
import Testing
@testable import NextUpBridge

/// Mutation fuzzing of the phone bridge's reader of outside input (issue 15's
/// harness): damaged `.ics` files are read or refused in one line — never a
/// crash, never a hang — and, through a real bridge cycle, a damaged file
/// never costs another task anything.
@Suite struct BridgeFuzzTests {
    static func corpus() throws -> [[UInt8]] {
        var task = TaskItem(id: TaskID("0b7f1c9e-2d3a-4e5f-8a6b-7c8d9e0f1a2b")!)
        task.title = "Write the report, with; punctuation \\ and 漢字 and a long enough title to be folded somewhere"
        task.notes = "two\nlines"
        task.urgency = .urgent
        task.importance = .medium
        task.duration = try TaskDuration(minutes: 90)
        task.category = "Deep Work"
        task.due = try DueDate(year: 2026, month: 12, day: 24)
        task.completedAt = 1_795_000_000_000
        task.nextUpPosition = "m"
        task.extra[.tag("alpha")] = .bool(true)
        task.created = 1_794_000_000_000
        let ours = Array(ICalComponent.vtodoCalendar(for: task, sequence: 7).serialized().utf8)
        let phone = Array("""
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//phone//EN\r
            BEGIN:VTIMEZONE\r
            TZID:Europe/Paris\r
            END:VTIMEZONE\r
            BEGIN:VTODO\r
            UID:tasks.org-42@example\r
            SUMMARY;LANGUAGE=fr:Acheter du pain\\, du lait\r
            DUE;TZID=Europe/Paris:20261201T170000\r
            PRIORITY:1\r
            STATUS:COMPLETED\r
            COMPLETED:20261118T110640Z\r
            CATEGORIES:Errands,shop\r
            SEQUENCE:3\r
            BEGIN:VALARM\r
            ACTION:DISPLAY\r
            END:VALARM\r
            END:VTODO\r
            END:VCALENDAR\r

            """.utf8)
        return [ours, phone, Array(String(decoding: ours, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n").utf8)]
    }

    @Test func damagedFilesAreReadOrRefusedInOneLine() throws {
        let outcome = Fuzz.run(cases: Fuzz.cases(default: 3000), seed: Fuzz.seed(0x1CA1), corpus: try Self.corpus()) { input in
            do {
                let roots = try ICalComponent.parse(input)
                for todo in roots.flatMap(\.components) where todo.name == "VTODO" {
                    do {
                        let view = try VTodoView(vtodo: todo)
                        _ = view.changes(since: nil, task: nil, now: 0)
                    } catch {
                        let words = "\(error)"
                        if words.isEmpty || words.contains("\n") { return "not one line: \(words.debugDescription)" }
                    }
                }
                // What parses writes back and parses again.
                for root in roots { _ = try ICalComponent.parse(Array(root.serialized().utf8)) }
                return nil
            } catch {
                let words = "\(error)"
                if words.isEmpty || words.contains("\n") { return "not one line: \(words.debugDescription)" }
                return nil
            }
        }
        #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
        print("fuzz ics: \(outcome.ran) cases in \(String(format: "%.2f", outcome.seconds)) s, slowest \(String(format: "%.3f", outcome.slowest)) s")
    }

    @Test func aDamagedFileInTheVdirCostsTheOtherTasksNothing() throws {
        let tmp = TemporaryFolder()
        let vdir = tmp.path("vdir")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        let store = try TaskStore.open(StoreLocation(folder: tmp.path("store")))
        let bridge = VdirBridge(store: store, folder: vdir)
        var draft = try TaskDraft(title: "Untouched")
        draft.urgency = .urgent
        draft.duration = try TaskDuration(minutes: 45)
        draft.category = "Admin"
        draft.nextUp = true
        let bystander = try store.add(draft)
        _ = try bridge.cycle()
        let before = try #require(try store.task(bystander.id))
        let bystanderFile = try Data(contentsOf: vdir.appendingPathComponent("\(bystander.id.rawValue).ics"))
        let outcome = Fuzz.run(cases: Fuzz.cases(default: 300), seed: Fuzz.seed(0xB1D6E), corpus: try Self.corpus()) { input in
            do {
                try Data(input).write(to: vdir.appendingPathComponent("damaged.ics"))
                let report = try bridge.cycle()
                if let bad = (report.skipped + report.notices).first(where: { $0.contains("\n") || $0.contains("\r") }) {
                    return "not one line: \(bad.debugDescription)"
                }
                guard let now = try store.task(bystander.id), now.versions == before.versions, now == before else {
                    return "the bystander changed"
                }
                if try Data(contentsOf: vdir.appendingPathComponent("\(bystander.id.rawValue).ics")) != bystanderFile {
                    return "the bystander's file was rewritten"
                }
                return nil
            } catch {
                return "the cycle failed: \(error)"
            }
        }
        #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
        print("fuzz vdir: \(outcome.ran) cycles in \(String(format: "%.2f", outcome.seconds)) s, slowest \(String(format: "%.3f", outcome.slowest)) s")
    }
}
