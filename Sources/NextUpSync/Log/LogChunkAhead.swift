import Dispatch

/// One chunk of a log file, decoded on another thread while the caller
/// merges the chunk before it (``LogFileReader/readLines(of:owner:from:upTo:consume:)``):
/// a large log (a first sync) then decodes during the store's work instead
/// of before it.
///
/// Contract: ``wait()`` returns what `decoder.scan(bytes, at: offset)` would
/// return on the calling thread. The decoding thread touches nothing but the
/// decoder and the bytes (no folder, no store); the caller must not use the
/// decoder until ``wait()`` has returned, so that one decode runs at a time.
final class LogChunkAhead: @unchecked Sendable {
    /// The chunk as read from the file.
    let bytes: [UInt8]
    private let offset: Int64
    private let decoder: LogDecoder
    /// Set by the decoding thread before it signals `done`; read only after
    /// waiting on `done` (the semaphore orders the two).
    private var scan: LogScan?
    private let done = DispatchSemaphore(value: 0)
    private var finished = false

    /// Starts decoding `bytes`, which start at absolute offset `offset` on a
    /// line boundary.
    init(_ bytes: [UInt8], at offset: Int64, decoder: LogDecoder) {
        self.bytes = bytes
        self.offset = offset
        self.decoder = decoder
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            scan = self.decoder.scan(self.bytes, at: self.offset)
            done.signal()
        }
    }

    /// The chunk's scan, once its decode has finished (waits for it).
    func wait() -> LogScan {
        if !finished {
            done.wait()
            finished = true
        }
        return scan!
    }
}
