import Synchronization

/// Where background threads (the store watcher, the sync engine) leave
/// ``LoopEvent``s for the UI loop: a queue plus a self-pipe the loop `poll()`s.
/// Background threads never touch the UI; posting is all they do.
///
/// Contract: ``post(_:)`` never blocks and is safe from any thread; ``take()``
/// returns the events posted since the last call, in order, each distinct
/// event once (a burst of "store changed" is one reload).
public final class LoopInbox: Sendable {
    public let pipe: WakePipe
    private let queue = Mutex<[LoopEvent]>([])

    public init() throws { pipe = try WakePipe() }

    /// Leaves an event for the loop and wakes it.
    public func post(_ event: LoopEvent) {
        queue.withLock { q in if !q.contains(event) { q.append(event) } }
        pipe.signal()
    }

    /// The events waiting, oldest first; empties the inbox and the pipe.
    public func take() -> [LoopEvent] {
        pipe.drain()
        return queue.withLock { q in
            defer { q = [] }
            return q
        }
    }
}
