/// The peer folder as the sync engine sees it: a flat set of named files that
/// can be listed, read at an offset, appended to, replaced whole, and renamed.
///
/// The narrow edge between the engine and the file system (TaskChampion calls
/// it a "server"): ``LocalPeerFolder`` is the real one, ``InMemoryPeerFolder``
/// the fake, and one contract test suite runs against both. Contract:
/// - ``list()`` returns the regular files, never this protocol's own temporary
///   files; ``PeerFileInfo/identity`` changes when a file is replaced,
///   ``PeerFileInfo/modified`` whenever its content is written.
/// - ``read(_:at:count:)`` returns up to `count` bytes from `offset` (fewer at
///   the end of the file, none past it).
/// - ``append(_:to:truncatingTo:)`` first cuts the file back to `length` when it
///   is longer (how a writer drops a torn tail), then adds all the bytes in one
///   write and makes them durable before returning the new size. It creates a
///   missing file.
/// - ``replace(_:writing:)`` makes a complete new file and then, atomically,
///   puts it in place: a reader sees the old file or the new one, never a mix.
/// - Every operation throws ``PeerFolderError`` when the folder is missing or
///   is not a folder; it never creates the folder itself (an unmounted share
///   must not silently become a local folder).
public protocol PeerFolder: AnyObject, Sendable {
    /// The folder's path, for messages.
    var location: String { get }
    /// Throws unless the folder exists and is a folder.
    func checkAvailable() throws
    func list() throws -> [PeerFileInfo]
    /// The file's size and identity; nil when it does not exist.
    func info(_ name: String) throws -> PeerFileInfo?
    func read(_ name: String, at offset: Int64, count: Int) throws -> [UInt8]
    @discardableResult
    func append(_ bytes: [UInt8], to name: String, truncatingTo length: Int64?) throws -> Int64
    /// Writes a new version of `name` through `produce` (which may call its
    /// argument any number of times) and puts it in place; returns its size.
    @discardableResult
    func replace(_ name: String, writing produce: (_ write: ([UInt8]) throws -> Void) throws -> Void) throws -> Int64
    /// Puts `bytes` in place as `name` only if no file has that name (written
    /// whole, then made visible at once); false, writing nothing, when one
    /// does — of two processes creating it at the same moment, exactly one wins.
    func create(_ name: String, bytes: [UInt8]) throws -> Bool
    /// Renames `name`; throws when it no longer exists.
    func rename(_ name: String, to newName: String) throws
    /// Removes what an earlier ``replace(_:writing:)`` of `name` left behind
    /// when it was cut short (a killed process). Only the file's one writer
    /// calls it, holding its store's sync lock. Never throws.
    func removeLeftovers(of name: String)
}

extension PeerFolder {
    /// Nothing is ever left behind by default.
    public func removeLeftovers(of name: String) {}
}

/// One file in the peer folder.
public struct PeerFileInfo: Hashable, Sendable {
    public let name: String
    public let size: Int64
    /// Changes when the file is replaced by another (an inode on disk).
    public let identity: UInt64
    /// Changes whenever the file's content is written, even in place without
    /// a change of size (a modification time in ns on disk; 0: unknown).
    public let modified: Int64

    public init(name: String, size: Int64, identity: UInt64, modified: Int64 = 0) {
        self.name = name
        self.size = size
        self.identity = identity
        self.modified = modified
    }
}

/// Why the peer folder could not be used. One clear line each.
public enum PeerFolderError: Error, Equatable, CustomStringConvertible {
    case missing(String)
    case notAFolder(String)
    /// The folder exists but is not the one this store synced with: its
    /// marker is missing or names another folder (DESIGN.md §5).
    case unmountedOrReplaced(path: String, why: String)
    case io(path: String, operation: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let path): return "peer folder \(path) does not exist (is it mounted?); create it first to sync through it"
        case .notAFolder(let path): return "peer folder \(path) is not a folder"
        case .unmountedOrReplaced(let path, let why):
            return "the peer folder looks unmounted or replaced: \(path) (\(why)); nothing was written to it — mount the share, or if this is a new peer folder on purpose, run `nextup sync --adopt-folder` once"
        case .io(let path, let operation, let reason): return "cannot \(operation) \(path): \(reason)"
        }
    }
}
