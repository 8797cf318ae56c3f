import Foundation
import NextUpStore

extension VdirBridge {
    /// The vdir's state in one line for `nextup doctor`, and its problems in
    /// plain words (empty: none). Writes nothing.
    public func diagnose() -> (summary: String, problems: [String]) {
        let path = folder.url.path
        do { try folder.checkAvailable() } catch {
            return ("\(path) (missing)", ["\(error)"])
        }
        let names: [String]
        do { names = try folder.itemNames() } catch { return ("\(path) (unreadable)", ["\(error)"]) }
        let state = (try? store.bridgeState()) ?? [:]
        let sameFolder = state[Self.folderKey] == path
        let known = sameFolder ? state.keys.filter { $0.hasPrefix(Self.itemPrefix) }.count : 0
        var problems: [String] = []
        if names.isEmpty, known > 0 {
            problems.append("the vdir \(path) is empty but the bridge knew \(known) task files there (unmounted, or a vdirsyncer reset?); the bridge deletes nothing and waits")
        }
        let summary = "\(path) (\(names.count) .ics file\(names.count == 1 ? "" : "s"); "
            + (sameFolder ? "\(known) known to the bridge)" : "not bridged yet)")
        return (summary, problems)
    }
}
