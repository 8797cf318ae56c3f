import GRDBSQLite

/// What a statement's parameters are given, in order: text, an integer, a
/// Boolean or NULL. ``SQLiteBindings`` binds them; ``PackedValues`` packs
/// them to be bound later. ``TaskRow``'s one binding of a row writes to
/// either.
protocol ParameterValues {
    /// What giving a value may throw (packing never does).
    associatedtype Failure: Error
    mutating func text(_ text: String?) throws(Failure)
    mutating func int(_ n: Int64?) throws(Failure)
    mutating func bool(_ b: Bool?) throws(Failure)
    mutating func null() throws(Failure)
}

/// Something that gives its parameter values to be packed (``PackedValues``).
protocol Packable {
    /// Gives every value, in order, the same ones each time it is asked.
    func pack<Values: ParameterValues>(_ values: inout Values) throws(Values.Failure)
}

extension SQLiteBindings: ParameterValues {
    typealias Failure = any Error
}

/// A run of parameter values packed into one allocation, in order, to be
/// bound later on another thread (``bind(_:_:)``): a new row made on one
/// thread and inserted on another costs one allocation and one free, where
/// its strings, arrays and values cost a dozen, each freed on the thread
/// that did not make it (a lock shared with the maker's allocations).
///
/// Each value is a tag byte, then for an integer its 8 bytes, for a text its
/// length (4 bytes) and UTF-8 bytes — unaligned. A Boolean is packed as the
/// integer 0 or 1, as ``SQLiteBindings`` binds it.
///
/// Contract: ``bind(_:_:)`` binds exactly the values ``init(_:)``'s source
/// gave, in order, each as ``SQLiteBindings`` binds that value; texts are
/// bound in place, so the values must outlive the statement's execution
/// (``SQLiteBindings/execute(_:arenaBytes:_:)`` clears its bindings before
/// it returns).
struct PackedValues: @unchecked Sendable {
    private let storage: ManagedBuffer<Int, UInt8>
    /// How many values are packed.
    let count: Int

    /// Packs the values `source` gives (asked twice: once to measure, once to write).
    init(_ source: some Packable) {
        var measure = Measure()
        source.pack(&measure)
        let size = measure.bytes
        storage = ManagedBuffer<Int, UInt8>.create(minimumCapacity: size) { _ in size }
        var write = storage.withUnsafeMutablePointerToElements { Write(UnsafeMutableRawPointer($0)) }
        source.pack(&write)
        precondition(write.used == size, "packed \(write.used) bytes of \(size)")
        count = write.values
    }

    /// Binds the values in `range` (positions in packing order), in order,
    /// starting at `b`'s next parameter.
    func bind(_ b: inout SQLiteBindings, _ range: Range<Int>) throws {
        try storage.withUnsafeMutablePointerToElements { start in
            var p = UnsafeRawPointer(start)
            for i in 0..<range.upperBound {
                let tag = p.load(as: UInt8.self)
                p += 1
                switch tag {
                case Tag.text:
                    let length = Int(p.loadUnaligned(as: UInt32.self))
                    if i >= range.lowerBound { try b.text(inPlace: UnsafeRawBufferPointer(start: p + 4, count: length)) }
                    p += 4 + length
                case Tag.int:
                    if i >= range.lowerBound { try b.int(p.loadUnaligned(as: Int64.self)) }
                    p += 8
                default:
                    if i >= range.lowerBound { try b.null() }
                }
            }
        }
    }

    /// The text packed as value `index` (nil: another kind).
    func text(at index: Int) -> String? {
        storage.withUnsafeMutablePointerToElements { start in
            var p = UnsafeRawPointer(start)
            for i in 0...index {
                let tag = p.load(as: UInt8.self)
                p += 1
                let length = tag == Tag.text ? 4 + Int(p.loadUnaligned(as: UInt32.self)) : tag == Tag.int ? 8 : 0
                if i == index {
                    guard tag == Tag.text else { return nil }
                    return String(decoding: UnsafeRawBufferPointer(start: p + 4, count: length - 4), as: UTF8.self)
                }
                p += length
            }
            return nil
        }
    }

    private enum Tag {
        static let null: UInt8 = 0
        static let int: UInt8 = 1
        static let text: UInt8 = 2
    }

    /// Counts the bytes the values take.
    private struct Measure: ParameterValues {
        typealias Failure = Never
        var bytes = 0
        mutating func text(_ text: String?) { bytes += text.map { 5 + $0.utf8.count } ?? 1 }
        mutating func int(_ n: Int64?) { bytes += n == nil ? 1 : 9 }
        mutating func bool(_ b: Bool?) { bytes += b == nil ? 1 : 9 }
        mutating func null() { bytes += 1 }
    }

    /// Writes the values at `base`.
    private struct Write: ParameterValues {
        typealias Failure = Never
        let base: UnsafeMutableRawPointer
        var used = 0
        var values = 0
        init(_ base: UnsafeMutableRawPointer) { self.base = base }

        mutating func text(_ text: String?) {
            guard let text else { return null() }
            let (base, used) = (base, used)
            func write(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
                base.storeBytes(of: Tag.text, toByteOffset: used, as: UInt8.self)
                base.storeBytes(of: UInt32(bytes.count), toByteOffset: used + 1, as: UInt32.self)
                if let source = bytes.baseAddress, !bytes.isEmpty { (base + used + 5).copyMemory(from: source, byteCount: bytes.count) }
                return bytes.count
            }
            // The text's bytes in place; a copy of the string (to call the
            // mutating `withUTF8`) only for one not stored as UTF-8.
            let length: Int
            if let written = text.utf8.withContiguousStorageIfAvailable(write) {
                length = written
            } else {
                var copy = text
                length = copy.withUTF8(write)
            }
            self.used += 5 + length
            values += 1
        }

        mutating func int(_ n: Int64?) {
            guard let n else { return null() }
            base.storeBytes(of: Tag.int, toByteOffset: used, as: UInt8.self)
            base.storeBytes(of: n, toByteOffset: used + 1, as: Int64.self)
            used += 9
            values += 1
        }

        mutating func bool(_ b: Bool?) { int(b.map { $0 ? 1 : 0 }) }

        mutating func null() {
            base.storeBytes(of: Tag.null, toByteOffset: used, as: UInt8.self)
            used += 1
            values += 1
        }
    }
}
