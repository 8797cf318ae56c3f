import CNcursesw
import Glibc
import Synchronization

/// The pipe the quit signals write to; an atomic, since a signal handler may
/// take no lock.
private let signalPipeFD = Atomic<Int32>(-1)

/// Turns SIGINT, SIGTERM and SIGHUP into a byte on a pipe — the signal's
/// number — so the event loop handles them in order, through its normal path
/// (Ctrl-C cancels an open prompt; otherwise the loop quits and restores the
/// terminal); on a crash signal it restores the terminal before the process
/// dies.
enum SignalTrap {
    static let quitSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    static func install(pipe: WakePipe) {
        signalPipeFD.store(pipe.writeFD, ordering: .sequentiallyConsistent)
        for s in quitSignals {
            signal(s) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipeFD.load(ordering: .sequentiallyConsistent), &byte, 1)
            }
        }
        for s in crashSignals {
            signal(s) { sig in
                endwin()
                signal(sig, SIG_DFL)
                raise(sig)
            }
        }
    }

    static func uninstall() {
        for s in quitSignals + crashSignals { signal(s, SIG_DFL) }
        signalPipeFD.store(-1, ordering: .sequentiallyConsistent)
    }
}
