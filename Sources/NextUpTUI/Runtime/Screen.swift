/// The terminal as the runtime sees it: a size, a way to show a frame and a
/// way to read the keys typed so far. ncursesw in the app, ``FakeScreen`` in
/// tests.
public protocol Screen: AnyObject {
    /// The size in cells (columns, rows).
    func size() -> (width: Int, height: Int)
    /// Shows a frame. Lines are exactly the frame's width; nothing in them is
    /// a control character.
    func draw(_ frame: Frame)
    /// Every key typed since the last call, without waiting.
    func readKeys() -> [Key]
    /// Forgets what is on the terminal and repaints everything next draw.
    func redrawAll()
}

/// An in-memory screen for tests: keys are queued by the test, frames are kept.
public final class FakeScreen: Screen {
    public var width: Int
    public var height: Int
    public var pendingKeys: [Key] = []
    public private(set) var frames: [Frame] = []
    public private(set) var fullRedraws = 0

    public init(width: Int = 80, height: Int = 24) {
        self.width = width
        self.height = height
    }

    public var lastFrame: Frame? { frames.last }

    public func size() -> (width: Int, height: Int) { (width, height) }
    public func draw(_ frame: Frame) { frames.append(frame) }
    public func readKeys() -> [Key] {
        defer { pendingKeys = [] }
        return pendingKeys
    }
    public func redrawAll() { fullRedraws += 1 }
}
