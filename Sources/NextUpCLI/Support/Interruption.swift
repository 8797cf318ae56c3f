import Dispatch
import Glibc

/// SIGINT and SIGTERM for a command that runs until stopped (`sync --watch`):
/// made harmless to the process on creation (and left so, so that a second
/// Ctrl-C cannot cut the shutdown short), delivered to ``wait()``, which
/// returns when one arrives.
final class Interruption {
    private let stop = DispatchSemaphore(value: 0)
    private let queue = DispatchQueue(label: "nextup.signals")
    private var sources: [DispatchSourceSignal] = []

    init() {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let stop = self.stop
        sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
    }

    /// Blocks until SIGINT or SIGTERM.
    func wait() {
        stop.wait()
        sources.forEach { $0.cancel() }
    }
}
