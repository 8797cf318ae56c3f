import Glibc

/// The one loop of the UI: `poll()`s the keyboard, the wake pipe (store
/// watcher, sync engine) and the signal pipe, and feeds the runtime.
/// Background threads never touch the screen; they only write to the pipe.
final class EventLoop {
    let runtime: AppRuntime
    let screen: Screen
    let wake: WakePipe
    let signals: WakePipe

    init(runtime: AppRuntime, screen: Screen, wake: WakePipe, signals: WakePipe) {
        self.runtime = runtime
        self.screen = screen
        self.wake = wake
        self.signals = signals
    }

    func run() {
        runtime.start()
        var fds = [
            pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signals.readFD, events: Int16(POLLIN), revents: 0),
        ]
        while !runtime.state.quitting {
            for i in fds.indices { fds[i].revents = 0 }
            let n = poll(&fds, nfds_t(fds.count), Int32(runtime.nextDeadline))
            if n < 0 && errno != EINTR { break }
            if fds[2].revents != 0 { break }
            if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { break }
            let keys = screen.readKeys()
            if !keys.isEmpty { runtime.handle(keys: keys) }
            if fds[1].revents & Int16(POLLIN) != 0 {
                wake.drain()
                runtime.somethingChanged()
            } else if n == 0 {
                runtime.tick()
                runtime.somethingChanged()
            }
        }
    }
}
