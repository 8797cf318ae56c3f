#if canImport(Glibc)
import Glibc
#endif

/// Items made on two threads — another one and the caller's — and used, in
/// order, on the caller's: while the caller uses one run of items, the next
/// runs are being made, and when the next one it needs is not ready, the
/// caller makes a run itself instead of waiting. For a sequence of writes
/// whose preparation (pure work) and writing (a database connection, which
/// stays on the caller's thread) take comparable time — an import's new
/// rows, made ahead of their insertion. Both cores stay busy however the
/// work divides: with one thread making and the caller only using, the
/// caller waited a third of the time when its core was the faster one.
///
/// Contract: ``run(count:run:make:use:)`` calls `make(k)` once for each `k`
/// in `0..<count` — in runs of `run` consecutive items, each run on one
/// thread in order, runs on either thread and several at once — so `make`
/// must be safe to call on two threads at once for different items, and
/// each item must depend only on `k`. It calls `use` with each item in
/// order, on the caller's thread, and returns when all are used. When
/// `make(k)` throws (the first `k` in order that does), every item before
/// `k` is used and then that error is thrown; when `use` throws, no
/// further run is started (at most those in flight finish) and that error
/// is thrown. At most four runs are made ahead of the one in use. Nothing
/// is left running when it returns or throws, so `make` may
/// use the caller's memory that `use` does not touch.
public enum Handoff {
    public static func run<T>(count: Int, run: Int = 256, make: (Int) throws -> T, use: (T) throws -> Void) throws {
        guard count > 0 else { return }
        try withoutActuallyEscaping(make) { make in
            let channel = Channel<T>(make, count: count, run: run)
            OwnThread.start { channel.help() }
            defer { channel.finish() }
            for index in 0..<channel.runs {
                let made = channel.take(index)
                for item in made.items { try use(item) }
                if let failure = made.failure { throw failure }
            }
        }
    }

    /// The runs between the two threads, under one mutex: which is next to
    /// claim, those made and not yet taken, and where making stops.
    private final class Channel<T>: @unchecked Sendable {
        /// How many runs, from the one the caller needs on, may be claimed.
        static var window: Int { 4 }

        /// A run's items, and the error of the item that ended it early.
        struct Made {
            var items: [T]
            var failure: (any Error)?
        }

        /// Let go of in ``finish()``: the caller's closure must not outlive ``run(count:run:make:use:)``.
        private var make: ((Int) throws -> T)?
        private let count: Int
        private let size: Int
        let runs: Int
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        /// Made runs not yet taken, by their index.
        private var made: [Made?]
        /// The next run to claim; runs are claimed in order.
        private var nextClaim = 0
        /// The run the caller needs next.
        private var needed = 0
        /// No run from this one on is claimed (after a run that failed, or
        /// once the caller stopped taking runs).
        private var stop: Int
        private var helperDone = false

        init(_ make: @escaping (Int) throws -> T, count: Int, run: Int) {
            self.make = make
            self.count = count
            size = max(1, run)
            runs = (count + size - 1) / size
            stop = runs
            made = Array(repeating: nil, count: runs)
            pthread_mutex_init(mutex, nil)
            pthread_cond_init(changed, nil)
        }

        deinit {
            pthread_cond_destroy(changed)
            pthread_mutex_destroy(mutex)
            changed.deallocate()
            mutex.deallocate()
        }

        /// Claims the next run and makes it, or returns false when none may
        /// be claimed now. Called holding the mutex and returns holding it;
        /// the run is made without it.
        private func makeNextRun() -> Bool {
            guard nextClaim < stop, nextClaim < needed + Self.window else { return false }
            let index = nextClaim
            nextClaim += 1
            pthread_mutex_unlock(mutex)
            let range = index * size..<min((index + 1) * size, count)
            var run = Made(items: [], failure: nil)
            run.items.reserveCapacity(range.count)
            let make = self.make!
            do {
                for k in range { run.items.append(try make(k)) }
            } catch {
                run.failure = error
            }
            pthread_mutex_lock(mutex)
            if run.failure != nil { stop = min(stop, index + 1) }
            made[index] = run
            pthread_cond_broadcast(changed)
            return true
        }

        /// The other thread: makes runs until none is left to claim or the
        /// caller stopped.
        func help() {
            pthread_mutex_lock(mutex)
            while nextClaim < stop {
                if !makeNextRun() { pthread_cond_wait(changed, mutex) }
            }
            helperDone = true
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
        }

        /// Run `index`, which is the one after the last taken: made by
        /// either thread, the caller making runs itself while it is not ready.
        func take(_ index: Int) -> Made {
            pthread_mutex_lock(mutex)
            needed = index
            pthread_cond_broadcast(changed)  // room for the other thread
            while made[index] == nil {
                if !makeNextRun() { pthread_cond_wait(changed, mutex) }
            }
            let run = made[index]!
            made[index] = nil
            pthread_mutex_unlock(mutex)
            return run
        }

        /// Stops the making and waits until the other thread is done.
        func finish() {
            pthread_mutex_lock(mutex)
            stop = 0
            pthread_cond_broadcast(changed)
            while !helperDone { pthread_cond_wait(changed, mutex) }
            made = []
            make = nil
            pthread_mutex_unlock(mutex)
        }
    }
}
