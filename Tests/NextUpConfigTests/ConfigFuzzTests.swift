import Foundation
import NextUpConfig
import NextUpCore
import NextUpTestSupport
import Testing

/// Mutation fuzzing of the config file reader (issue 15): a damaged
/// config.toml is read or refused with one line naming the file — never a
/// crash, never a hang.
@Suite struct ConfigFuzzTests {
    @Test func damagedConfigFilesAreReadOrRefusedInOneLine() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let shipped = [UInt8](try Data(contentsOf: root.appendingPathComponent("Resources/config.toml")))
        let full = Array("""
        # a full config
        peer = "~/Sync/nextup"
        categories = ["Essentials", "Deep Work", "Admin", "Études", "Recharge 🔋"]

        [keys]
        cycle_urgency = "U"
        quit = "Q"
        move_down = "n"
        """.utf8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nextup-config-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let counter = Counter()
        let outcome = Fuzz.run(cases: Fuzz.cases(default: 2000), seed: Fuzz.seed(0xC0_F160), corpus: [shipped, full]) { input in
            let file = folder.appendingPathComponent("config-\(counter.next()).toml")
            defer { try? FileManager.default.removeItem(at: file) }
            do {
                try Data(input).write(to: file)
                _ = try NextUpConfig.load(from: file, environment: ["HOME": "/home/someone"])
                return nil
            } catch {
                let words = "\(error)"
                if words.isEmpty || words.contains("\n") || words.contains("\r") { return "not one line: \(words.debugDescription)" }
                if !words.contains(file.path) { return "the refusal does not name the file: \(words)" }
                return nil
            }
        }
        #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
        print("fuzz config: \(outcome.ran) cases in \(String(format: "%.2f", outcome.seconds)) s, slowest \(String(format: "%.3f", outcome.slowest)) s")
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
}

/// The strict syntax check in front of the TOML library: what a config file
/// uses passes; what the library might choke on is refused with its line.
@Suite struct ConfigSyntaxTests {
    func load(_ text: String) throws -> NextUpConfig {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nextup-syntax-\(UUID().uuidString).toml")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(text.utf8).write(to: url)
        return try NextUpConfig.load(from: url, environment: ["HOME": "/h"])
    }

    @Test func everythingAConfigFileUsesIsRead() throws {
        let c = try load("""
        \u{FEFF}# comment
        peer = '~/Sync/nextup'   # a literal string
        categories = [
          "Home",  # one
          "Wörk \\u00e9\\t",
        ]\r
        [keys]
        "quit" = "Q"
        cycle-urgency = "!"
        """)
        #expect(c.peerFolder == "/h/Sync/nextup")
        #expect(c.categories == ["Home", "Wörk é"])
        #expect(c.keys == ["quit": "Q", "cycle-urgency": "!"])
    }

    @Test(arguments: [
        ("peer = 1979-05-27", 1, "only strings"),
        ("\n\nkeys.quit = \"Q\"", 3, "dotted keys"),
        ("peer = \"open", 1, "not closed"),
        ("peer = \"a\" b", 1, "unexpected 'b'"),
        ("[[keys]]", 1, "arrays of tables"),
        ("categories = [\"a\" \"b\"]", 1, "expected ',' or ']'"),
        ("peer = \"\\q\"", 1, "unknown escape"),
        ("peer = \"\u{1}\"", 1, "control character"),
        ("[keys\nquit = \"q\"", 1, "must end with ']'"),
        ("= \"x\"", 1, "expected a key"),
    ])
    func damageIsRefusedWithItsLine(text: String, line: Int, says: String) {
        #expect {
            _ = try load(text)
        } throws: { error in
            let words = "\(error)"
            return words.contains("line \(line): ") && words.contains(says) && !words.contains("\n")
        }
    }
}
