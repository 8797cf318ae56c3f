import Foundation
import Testing
@testable import NextUpCLI

/// Commands read the environment through ``CommandEnvironment``, which
/// copies only the variables it names: a variable read anywhere else in the
/// command line's code must be one of them, or it would always read unset.
@Suite struct CommandEnvironmentTests {
    @Test func itHoldsTheNamedVariablesAsTheProcessHasThem() {
        let process = ProcessInfo.processInfo.environment
        let current = CommandEnvironment.current
        #expect(Set(current.keys).isSubset(of: CommandEnvironment.names))
        for name in CommandEnvironment.names { #expect(current[name] == process[name], "\(name)") }
        #expect(current["HOME"] != nil)
    }

    /// Every `environment["NAME"]` in the modules a command runs (the CLI,
    /// the config, the store's location) names a variable it copies.
    @Test func everyVariableReadIsOneItCopies() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        var read: Set<String> = []
        for module in ["NextUpCLI", "NextUpConfig", "NextUpStore"] {
            let folder = sources.appendingPathComponent(module)
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
            for case let file as URL in files where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                for match in text.matches(of: /environment\["([A-Z_]+)"\]/) { read.insert(String(match.1)) }
            }
        }
        #expect(read.count >= 6)
        #expect(read.isSubset(of: CommandEnvironment.names), "read but not copied: \(read.subtracting(CommandEnvironment.names))")
    }
}
