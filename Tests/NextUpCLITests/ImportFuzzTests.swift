import Foundation
import NextUpCore
import NextUpStore
import NextUpTestSupport
import Testing
@testable import NextUpCLI

/// Mutation fuzzing of the two import readers (issue 15): nextup's own JSON
/// and Taskwarrior's `task export`. Every damaged file is either read or
/// refused with one line of words — never a crash, never a hang — and a file
/// that is refused, by the reader or by the store, writes nothing.
@Suite struct ImportFuzzTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var nextupCorpus: [[UInt8]] {
        let demo = [UInt8]((try? Data(contentsOf: root.appendingPathComponent("Resources/demo-tasks.json"))) ?? Data())
        let exported = #"""
        [{"category":"foo","completed_at":null,"created":"2026-11-23T18:59:13.171Z","deleted":false,"done":false,
          "due":"2026-12-01","duration":45,"external_id":null,"id":"27784cf3-745c-471b-bd0f-d96820753ad2",
          "importance":null,"modified":"2026-11-23T18:59:13.240Z","next_up":true,"notes":"two\nlines","source":null,
          "tags":["home","ünïcödé"],"title":"x \"quoted\" 🧪","urgency":null,"x-newer-field":{"a":[1,2]},
          "versions":{"category":"01a209c6ccd80000@3e76bcdf-34c4-448b-ad75-51e51bd7802f",
                      "title":"01a209c6ccd80000@3e76bcdf-34c4-448b-ad75-51e51bd7802f",
                      "tag:home":"01a209c6cc930000@3e76bcdf-34c4-448b-ad75-51e51bd7802f"}},
         {"id":"638599d4-f7c3-4daf-b34b-3218822034e3","title":"t2","done":true,"completed_at":"2026-11-20T10:00:00Z"}]
        """#
        return [demo, Array(exported.utf8), Array("[]".utf8)]
    }

    /// One store per check would be slow: a sample of the accepted files goes
    /// through a real store; the store must take all of it or none of it.
    static func importsAllOrNothing(_ records: [TaskJSON]) -> String? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nextup-fuzz-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let store = try TaskStore.open(StoreLocation(folder: folder))
            do {
                _ = try store.importTasks(records)
            } catch {
                let left = (try? store.allTasks().count) ?? -1
                if left != 0 { return "a refused import left \(left) tasks in the store (\(error))" }
                if "\(error)".contains("\n") { return "the store's refusal is not one line: \(error)" }
            }
        } catch {
            return "could not open a scratch store: \(error)"
        }
        return nil
    }

    static func oneLine(_ error: any Error) -> String? {
        let words = "\(error)"
        if words.isEmpty || words.contains("\n") { return "the refusal is not one line of words: \(words.debugDescription)" }
        if words.contains("Error Domain") || words.contains("Code=") { return "a Foundation error code reached the user: \(words)" }
        return nil
    }

    @Test func damagedNextupJSONIsReadOrRefusedInOneLine() {
        let corpus = Self.nextupCorpus
        #expect(corpus[0].count > 1000, "Resources/demo-tasks.json was not found")
        let outcome = Fuzz.run(cases: Fuzz.cases(default: 2500), seed: Fuzz.seed(0x1A50_0001), corpus: corpus) { input in
            let records: [TaskJSON]
            do {
                records = try JSONOutput.decodeTasks(Data(input))
            } catch {
                return Self.oneLine(error)
            }
            // Every 40th accepted file, and every small one, through a real store.
            if input.count % 40 == 0 || records.count <= 1 { return Self.importsAllOrNothing(records) }
            return nil
        }
        #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
        print("fuzz nextup JSON import: \(outcome.ran) cases in \(String(format: "%.2f", outcome.seconds)) s, slowest \(String(format: "%.3f", outcome.slowest)) s")
    }

    @Test func damagedTaskwarriorExportsAreReadOrRefusedInOneLine() {
        let corpus = [Array(TaskwarriorReaderTests.export26.utf8), Array("[]".utf8),
                      Array(#"{"uuid":"5f1b2c3d-0000-4000-8000-00000000000a","description":"one per line","status":"pending","entry":"20261120T100000Z"}"#.utf8)]
        let outcome = Fuzz.run(cases: Fuzz.cases(default: 2500), seed: Fuzz.seed(0x1A50_0002), corpus: corpus) { input in
            let records: [TaskJSON]
            do {
                let tasks = try TaskwarriorReader.read(Data(input))
                records = try tasks.map { try TaskwarriorMapping.record($0, TaskwarriorMapping.Options()) }
            } catch {
                return Self.oneLine(error)
            }
            if input.count % 40 == 0 || records.count <= 1 { return Self.importsAllOrNothing(records) }
            return nil
        }
        #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
        print("fuzz Taskwarrior import: \(outcome.ran) cases in \(String(format: "%.2f", outcome.seconds)) s, slowest \(String(format: "%.3f", outcome.slowest)) s")
    }
}
