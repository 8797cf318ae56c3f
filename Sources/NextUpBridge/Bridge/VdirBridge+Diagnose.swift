import Foundation
import NextUpCore
import NextUpStore

extension VdirBridge {
    /// The vdir's state in one line for `nextup doctor`, and its problems in
    /// plain words (empty: none): every file a cycle skips, with its reason,
    /// and vanished files a cycle will not delete unasked. Writes nothing.
    public func diagnose() -> (summary: String, problems: [String]) {
        let path = folder.url.path
        do { try folder.checkAvailable() } catch {
            return ("\(path) (missing)", ["\(error)"])
        }
        let names: [String]
        do { names = try folder.itemNames() } catch { return ("\(path) (unreadable)", ["\(error)"]) }
        let key = try? vdirKey(create: false)
        let memory = key.flatMap { try? store.bridgeItems(vdir: $0) } ?? [:]
        let known = memory.values.filter { !$0.gone }
        var problems: [String] = []
        let spellings = Set([path, folder.url.resolvingSymlinksInPath().path])
        let knownHere = key == nil ? ((try? store.bridgeVdirs()) ?? [:]).values.first { spellings.contains($0.path) && $0.files > 0 }?.files ?? 0 : known.count
        if names.isEmpty, knownHere > 0 {
            problems.append("the vdir \(path) is empty but the bridge knew \(knownHere) task files there (unmounted, or a vdirsyncer reset?); the bridge deletes nothing and waits")
        } else {
            let present = Set(names)
            let vanished = known.filter { !present.contains($0.file) }.count
            if BridgeCycle.tooManyVanished(vanished, of: known.count) {
                problems.append(BridgeCycle.massDeletionNotice(vanished, of: known.count, path: path))
            }
        }
        for name in names {
            switch folder.read(name, limit: Self.maxFileBytes) {
            case .tooLarge(let size): problems.append("the bridge skips \(Sanitizer.visible(name)): larger than \(Self.maxFileBytes / 1024 / 1024) MiB (\(size) bytes)")
            case .failed(let why): problems.append("the bridge skips \(Sanitizer.visible(name)): \(why)")
            case .bytes(let bytes):
                if case .failure(let why) = BridgeCycle.item(bytes, zone: zone) {
                    problems.append("the bridge skips \(Sanitizer.visible(name)): \(Sanitizer.visible(why.message))")
                }
            }
        }
        let summary = "\(path) (\(names.count) .ics file\(names.count == 1 ? "" : "s"); "
            + (key != nil && !memory.isEmpty ? "\(known.count) known to the bridge)" : "not bridged yet)")
        return (summary, problems)
    }
}
