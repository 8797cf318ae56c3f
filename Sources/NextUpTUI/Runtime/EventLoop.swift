import Glibc

/// The one loop of the UI. It `poll()`s three descriptors — the keyboard, the
/// inbox's self-pipe (background threads: the folder watcher, the sync
/// engine) and the signal pipe — turns what woke it into typed
/// ``LoopEvent``s, and hands them to the runtime in one batch; when nothing
/// woke it before the runtime's next deadline, the event is a tick.
/// Background threads never touch the screen; they only post to the inbox.
final class EventLoop {
    let runtime: AppRuntime
    let screen: Screen
    let inbox: LoopInbox
    let signals: WakePipe

    init(runtime: AppRuntime, screen: Screen, inbox: LoopInbox, signals: WakePipe) {
        self.runtime = runtime
        self.screen = screen
        self.inbox = inbox
        self.signals = signals
    }

    /// Runs until the person quits; returns the process's exit status.
    @discardableResult
    func run() -> Int32 {
        runtime.start()
        var fds = [
            pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
            pollfd(fd: inbox.pipe.readFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signals.readFD, events: Int16(POLLIN), revents: 0),
        ]
        while !runtime.state.quitting {
            for i in fds.indices { fds[i].revents = 0 }
            let n = poll(&fds, nfds_t(fds.count), Int32(runtime.nextDeadline))
            if n < 0 && errno != EINTR { break }
            if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { break }
            var events = screen.readKeys().map(LoopEvent.init(key:))
            if fds[2].revents != 0 { events += signals.take().map { .signal(Int32($0)) } }
            if fds[1].revents & Int16(POLLIN) != 0 { events += inbox.take() }
            if n == 0 { events.append(.tick) }
            if !events.isEmpty { runtime.handle(events) }
        }
        return runtime.state.exitStatus
    }
}
