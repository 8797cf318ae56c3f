import Foundation
import Synchronization

/// Polls `condition` until it holds or `seconds` pass (generous limits: the
/// machine is noisy). Returns whether it held.
func eventually(within seconds: Double = 15, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}

/// A thread-safe counter for callbacks.
final class CallCounter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}
