import Foundation

/// Polls `condition` until it holds or `seconds` pass (generous limits: the
/// machine is noisy). Returns whether it held. For waiting on something that
/// must happen — never to wait and see that nothing did.
public func eventually(within seconds: Double = 15, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}
