import Synchronization

/// A peer folder held in memory: the fake for tests (see ``PeerFolder``).
///
/// Besides the contract, it lets a test break things on purpose: make the
/// folder vanish, or tear the next append after a given number of bytes (as a
/// crash in the middle of a write would).
public final class InMemoryPeerFolder: PeerFolder {
    private struct File {
        var bytes: [UInt8]
        var identity: UInt64
        /// The fake's modification time: a folder-wide count of writes.
        var modified: Int64 = 0
        func info(_ name: String) -> PeerFileInfo {
            PeerFileInfo(name: name, size: Int64(bytes.count), identity: identity, modified: modified)
        }
    }

    private struct State {
        var files: [String: File] = [:]
        var nextIdentity: UInt64 = 1
        var writes: Int64 = 0
        var available = true
        var tearNextAppendAfter: Int?
        var reorderListing: (@Sendable ([PeerFileInfo]) -> [PeerFileInfo])?
    }

    /// Thrown by an append torn on purpose.
    public struct SimulatedCrash: Error {}

    private let state = Mutex(State())
    public let location: String

    public init(location: String = "memory:peer") {
        self.location = location
    }

    /// Makes the folder present or missing.
    public func setAvailable(_ available: Bool) { state.withLock { $0.available = available } }

    /// The next append writes only its first `count` bytes (all of them when
    /// `count` is at least their number), then throws ``SimulatedCrash``.
    /// `nil` disarms it.
    public func tearNextAppend(after count: Int?) { state.withLock { $0.tearNextAppendAfter = count } }

    /// Lists files in the order `reorder` gives (to vary reading order).
    public func reorderListings(_ reorder: (@Sendable ([PeerFileInfo]) -> [PeerFileInfo])?) {
        state.withLock { $0.reorderListing = reorder }
    }

    /// The whole content of a file (tests).
    public func contents(of name: String) -> [UInt8]? { state.withLock { $0.files[name]?.bytes } }

    /// Puts a file in place as another writer (a file-sync tool, a peer) would.
    public func put(_ name: String, _ bytes: [UInt8]) {
        state.withLock { s in
            s.writes += 1
            s.files[name] = File(bytes: bytes, identity: s.nextIdentity, modified: s.writes)
            s.nextIdentity += 1
        }
    }

    /// Overwrites bytes of a file in place, keeping its size and identity (a
    /// damaged disk block, a stray write).
    public func overwrite(_ name: String, at offset: Int, with bytes: [UInt8]) {
        state.withLock { s in
            guard var file = s.files[name] else { return }
            for (i, byte) in bytes.enumerated() where offset + i < file.bytes.count { file.bytes[offset + i] = byte }
            s.writes += 1
            file.modified = s.writes
            s.files[name] = file
        }
    }

    /// Removes a file (tests).
    public func remove(_ name: String) { _ = state.withLock { $0.files.removeValue(forKey: name) } }

    public func checkAvailable() throws {
        if !state.withLock({ $0.available }) { throw PeerFolderError.missing(location) }
    }

    public func list() throws -> [PeerFileInfo] {
        try checkAvailable()
        let (listing, reorder) = state.withLock { s in
            (s.files.map { $0.value.info($0.key) }
                .sorted { $0.name < $1.name }, s.reorderListing)
        }
        return reorder?(listing) ?? listing
    }

    public func info(_ name: String) throws -> PeerFileInfo? {
        try checkAvailable()
        return state.withLock { s in
            s.files[name].map { $0.info(name) }
        }
    }

    public func read(_ name: String, at offset: Int64, count: Int) throws -> [UInt8] {
        try checkAvailable()
        return try state.withLock { s in
            guard let file = s.files[name] else { throw PeerFolderError.io(path: name, operation: "open", reason: "No such file or directory") }
            let start = Int(min(max(0, offset), Int64(file.bytes.count)))
            let end = min(file.bytes.count, start + max(0, count))
            return Array(file.bytes[start..<end])
        }
    }

    public func append(_ bytes: [UInt8], to name: String, truncatingTo length: Int64?) throws -> Int64 {
        try checkAvailable()
        return try state.withLock { s in
            var file = s.files[name] ?? File(bytes: [], identity: s.nextIdentity)
            if s.files[name] == nil { s.nextIdentity += 1 }
            if let length, Int64(file.bytes.count) > length { file.bytes.removeLast(file.bytes.count - Int(length)) }
            s.writes += 1
            file.modified = s.writes
            if let tear = s.tearNextAppendAfter {
                s.tearNextAppendAfter = nil
                file.bytes.append(contentsOf: bytes.prefix(tear))
                s.files[name] = file
                throw SimulatedCrash()
            }
            file.bytes.append(contentsOf: bytes)
            s.files[name] = file
            return Int64(file.bytes.count)
        }
    }

    public func replace(_ name: String, writing produce: (([UInt8]) throws -> Void) throws -> Void) throws -> Int64 {
        try checkAvailable()
        var content: [UInt8] = []
        try produce { content.append(contentsOf: $0) }
        put(name, content)
        return Int64(content.count)
    }

    public func create(_ name: String, bytes: [UInt8]) throws -> Bool {
        try checkAvailable()
        return state.withLock { s in
            guard s.files[name] == nil else { return false }
            s.writes += 1
            s.files[name] = File(bytes: bytes, identity: s.nextIdentity, modified: s.writes)
            s.nextIdentity += 1
            return true
        }
    }

    public func rename(_ name: String, to newName: String) throws {
        try checkAvailable()
        try state.withLock { s in
            guard let file = s.files.removeValue(forKey: name) else {
                throw PeerFolderError.io(path: name, operation: "rename", reason: "No such file or directory")
            }
            s.files[newName] = file
        }
    }
}
