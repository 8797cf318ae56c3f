/// What the phone bridge remembers about one VTODO of one vdir (a row of
/// `bridge_item`, with its `bridge_written` rows): the file's name, the
/// fingerprint and ``Stamp`` of its bytes when the bridge last wrote or read
/// it, whether it is gone (removed by a client; its task was soft-deleted),
/// the phone's last version (``base``: the bytes the bridge last read from
/// the vdir, written there by someone else) and what the bridge wrote since
/// (``written``, oldest first).
///
/// Contract: the bytes the bridge last saw are `written.last ?? base`; nil
/// for a memory moved from a store before this table (only its fingerprint
/// is known then).
public struct BridgeItem: Hashable, Sendable {
    public var uid: String
    public var file: String
    public var hash: String
    public var gone: Bool
    public var stamp: Stamp?
    public var base: [UInt8]?
    public var written: [[UInt8]]
    /// The task's newest version (``NextUpCore/HybridTimestamp`` raw value)
    /// when the bridge last found or made the file saying what the task
    /// said: while neither moved, the file needs no look.
    public var checked: Int64?

    /// `stat`'s device, inode, size, and modification and status-change times (ns).
    public struct Stamp: Hashable, Sendable {
        public var device: Int64
        public var inode: Int64
        public var size: Int64
        public var modified: Int64
        public var changed: Int64

        public init(device: Int64, inode: Int64, size: Int64, modified: Int64, changed: Int64) {
            self.device = device
            self.inode = inode
            self.size = size
            self.modified = modified
            self.changed = changed
        }
    }

    public init(uid: String, file: String, hash: String, gone: Bool = false, stamp: Stamp? = nil, base: [UInt8]? = nil,
                written: [[UInt8]] = [], checked: Int64? = nil) {
        self.checked = checked
        self.uid = uid
        self.file = file
        self.hash = hash
        self.gone = gone
        self.stamp = stamp
        self.base = base
        self.written = written
    }

    /// The bytes the bridge last wrote or read for this file, when known.
    public var lastSeen: [UInt8]? { written.last ?? base }

    /// How many of the bridge's own writes are kept beside the base: enough
    /// for every write a server may hold while the phone edits.
    public static let writtenKept = 16
}
