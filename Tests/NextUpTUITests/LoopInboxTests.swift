import Foundation
import Glibc
import Testing
@testable import NextUpTUI

@Suite struct LoopInboxTests {
    @Test func eventsPostedFromManyThreadsArriveOnceEachInOrderAndWakeThePipe() throws {
        let inbox = try LoopInbox()
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            inbox.post(.storeChanged)
            if i == 7 { inbox.post(.syncFinished(changedStore: true)) }
        }
        var fd = pollfd(fd: inbox.pipe.readFD, events: Int16(POLLIN), revents: 0)
        #expect(poll(&fd, 1, 0) == 1, "posting wakes the loop")
        let events = inbox.take()
        #expect(events.first == .storeChanged)
        #expect(events.count == 2 && events.contains(.syncFinished(changedStore: true)))
        fd.revents = 0
        #expect(poll(&fd, 1, 0) == 0, "taking drains the pipe")
        #expect(inbox.take().isEmpty)
    }

    @Test func aResizeKeyIsAResizeEvent() {
        #expect(LoopEvent(key: .resize) == .resize)
        #expect(LoopEvent(key: .char("j")) == .key(.char("j")))
    }
}
