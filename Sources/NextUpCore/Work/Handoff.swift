import Dispatch

/// Items made on one thread and used, in order, on the caller's: while the
/// caller uses one run of items, the next is being made. For a sequence of
/// writes whose preparation (pure work) and writing (a database connection,
/// which stays on the caller's thread) take comparable time — an import's
/// new rows, made ahead of their insertion.
///
/// Contract: ``run(count:run:make:use:)`` calls `make(0)`, `make(1)`, … in
/// order on another thread, and `use` with each item in the same order on
/// the caller's thread; it returns when all are used. When `make(k)` throws,
/// every item before `k` is used and then that error is thrown; when `use`
/// throws, no further item is made (at most the runs already in flight)
/// and that error is thrown. Nothing is left running when it returns or
/// throws, so `make` may use the caller's memory that `use` does not touch.
public enum Handoff {
    public static func run<T>(count: Int, run: Int = 256, make: (Int) throws -> T, use: (T) throws -> Void) throws {
        try withoutActuallyEscaping(make) { make in
            let channel = Channel<T>(make, count: count, run: run)
            OwnThread.start { channel.produce() }
            defer { channel.finish() }
            while let items = try channel.next() {
                for item in items { try use(item) }
            }
        }
    }

    /// The runs between the two threads: at most ``inFlight`` made and not
    /// yet used, handed over under a lock and counted by two semaphores.
    private final class Channel<T>: @unchecked Sendable {
        static var inFlight: Int { 3 }
        private var make: ((Int) throws -> T)?
        private let count: Int
        private let run: Int
        private let lock = DispatchSemaphore(value: 1)
        private let made = DispatchSemaphore(value: 0)
        /// Made at 0 and signalled up to ``inFlight``: Dispatch refuses to
        /// free a semaphore left below the value it was made with.
        private let room = DispatchSemaphore(value: 0)
        private let stopped = DispatchSemaphore(value: 0)
        /// Made runs not yet taken; the last is followed by the end (and the
        /// error `make` threw, if any).
        private var runs: [[T]] = []
        private var end: (any Error)?? = nil
        private var cancelled = false

        init(_ make: @escaping (Int) throws -> T, count: Int, run: Int) {
            self.make = make
            self.count = count
            self.run = max(1, run)
            for _ in 0..<Self.inFlight { room.signal() }
        }

        /// The other thread: makes runs until all are made, one throws, or
        /// the caller stops taking them.
        func produce() {
            var next = 0
            var failure: (any Error)?
            while next < count, failure == nil {
                room.wait()
                lock.wait()
                let stop = cancelled
                lock.signal()
                if stop { break }
                var items: [T] = []
                items.reserveCapacity(min(run, count - next))
                do {
                    while items.count < run, next < count {
                        items.append(try make!(next))
                        next += 1
                    }
                } catch {
                    failure = error
                }
                lock.wait()
                runs.append(items)
                lock.signal()
                made.signal()
            }
            make = nil  // let go of the caller's closure before it returns
            lock.wait()
            end = .some(failure)
            lock.signal()
            made.signal()
            stopped.signal()
        }

        /// The next run, nil at the end; throws what `make` threw once the
        /// runs before it are taken.
        func next() throws -> [T]? {
            made.wait()
            lock.wait()
            if !runs.isEmpty {
                let items = runs.removeFirst()
                lock.signal()
                room.signal()
                return items
            }
            let ended = end
            lock.signal()
            if case .some(.some(let error)) = ended { throw error }
            return nil
        }

        /// Stops making (when the caller stopped early) and waits until the
        /// other thread is done.
        func finish() {
            lock.wait()
            cancelled = true
            lock.signal()
            room.signal()  // a producer waiting for room sees the stop
            stopped.wait()
        }
    }
}
