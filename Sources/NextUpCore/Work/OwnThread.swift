#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// Starts work on a thread of its own, at once. ``SideBySide`` and
/// ``Handoff`` use it rather than Dispatch's global queue, whose few threads
/// (as many as cores) may all be blocked by other work of the process —
/// then the caller, waiting for its other half, waited until one came free
/// (a test running beside blocking ones waited a minute).
public enum OwnThread {
    public static func start(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, box)
        if started == 0 {
            pthread_detach(thread)
        } else {
            // No thread to be had (the process's limit): the global queue.
            let body = Unmanaged<Body>.fromOpaque(box).takeRetainedValue()
            DispatchQueue.global(qos: .userInitiated).async { body.run() }
        }
    }

    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
