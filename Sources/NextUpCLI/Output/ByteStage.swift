import NextUpCore

/// One task object's bytes on their way to the output: a buffer managed by
/// hand, so that the forty-odd small appends of an object cost a compare
/// and a copy each (an `Array` append checks uniqueness and capacity through
/// a call every time: a sixth of an export). The object is then appended to
/// the output at once.
///
/// Contract: ``bytes`` is everything appended since the last
/// ``removeAll()``; the memory is freed by ``deallocate()``, after which the
/// stage must not be used.
struct ByteStage: ByteSink {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 8192) {
        self.capacity = capacity
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    mutating func removeAll() { count = 0 }

    func deallocate() { base.deallocate() }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    private mutating func grow(to needed: Int) {
        var grown = capacity * 2
        while grown < needed { grown *= 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = grown
    }
}
