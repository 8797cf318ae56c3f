@testable import NextUpSync

/// A peer folder that passes every call to `inner`: the base of the test
/// folders that change one thing (fail a read, count bytes, list a phantom
/// file, run something before a write) by overriding only that call.
class ForwardingPeerFolder: PeerFolder, @unchecked Sendable {
    let inner: any PeerFolder
    init(_ inner: any PeerFolder) { self.inner = inner }
    var location: String { inner.location }
    func checkAvailable() throws { try inner.checkAvailable() }
    func list() throws -> [PeerFileInfo] { try inner.list() }
    func info(_ name: String) throws -> PeerFileInfo? { try inner.info(name) }
    func read(_ name: String, at offset: Int64, count: Int) throws -> [UInt8] { try inner.read(name, at: offset, count: count) }
    func append(_ bytes: [UInt8], to name: String, truncatingTo length: Int64?) throws -> Int64 { try inner.append(bytes, to: name, truncatingTo: length) }
    func replace(_ name: String, writing produce: (([UInt8]) throws -> Void) throws -> Void) throws -> Int64 { try inner.replace(name, writing: produce) }
    func create(_ name: String, bytes: [UInt8]) throws -> Bool { try inner.create(name, bytes: bytes) }
    func rename(_ name: String, to newName: String) throws { try inner.rename(name, to: newName) }
    func removeLeftovers(of name: String) { inner.removeLeftovers(of: name) }
}
