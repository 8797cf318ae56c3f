import Dispatch

/// Two pieces of work done at once: one on a thread of its own
/// (``OwnThread``), the other on the caller's thread. For the halves of a large input
/// that are worked on independently (an import's file, read and validated
/// in two halves on this machine's two cores).
///
/// Contract: ``run(_:_:)`` returns when both have finished — each has run
/// exactly once, whatever the other did — and gives both results; when
/// either throws, it rethrows the first one's error before the second's.
/// The two must not touch the same memory (each its own half); the caller's
/// data outlives both, since nothing is left running when it returns.
public enum SideBySide {
    public static func run<A, B>(_ first: () throws -> A, _ second: () throws -> B) throws -> (A, B) {
        try withoutActuallyEscaping(first) { first in
            let slot = Slot(first)
            let done = DispatchSemaphore(value: 0)
            OwnThread.start {
                slot.run()
                done.signal()
            }
            let b = Result { try second() }
            done.wait()
            return (try slot.result!.get(), try b.get())
        }
    }

    /// `items.map(transform)`, its two halves at once from `from` items on
    /// (the second's results moved after the first's,
    /// ``Swift/Array/append(moving:leaving:)``, `placeholder` left behind);
    /// throws the error of the first item that fails, as `map` does.
    public static func map<T, U>(_ items: [T], from: Int = 1_000, leaving placeholder: U, _ transform: (T) throws -> U) throws -> [U] {
        guard items.count >= max(2, from) else { return try items.map(transform) }
        let middle = items.count / 2
        var (first, second) = try run({ try items[..<middle].map(transform) }, { try items[middle...].map(transform) })
        first.append(moving: &second, leaving: placeholder)
        return first
    }

    /// The other thread's work and its result, handed over by the
    /// semaphore (written before `signal`, read after `wait`). The work is
    /// let go of as soon as it has run, before `signal`: it must not
    /// outlive ``run(_:_:)``, whatever the other thread still holds then.
    private final class Slot<A>: @unchecked Sendable {
        private var work: (() throws -> A)?
        var result: Result<A, any Error>?
        init(_ work: @escaping () throws -> A) { self.work = work }
        func run() {
            result = Result { try work!() }
            work = nil
        }
    }
}
