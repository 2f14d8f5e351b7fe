/// A reusable list of dense integer actions.
///
/// Games write their legal actions into a caller's buffer, which keeps its capacity
/// between turns: after the first few turns of a match, filling it allocates nothing
/// and clears nothing.
public struct ActionBuffer: Sendable {
    /// Initialised slots; the first `length` are the actions, the rest are spare room.
    @usableFromInline var storage: [Int32]
    @usableFromInline var length = 0

    /// An empty buffer with room for `capacity` actions before it must grow.
    public init(capacity: Int = 256) {
        storage = []
        storage.reserveCapacity(capacity)
    }

    /// The number of actions in the buffer.
    @inlinable public var count: Int { length }

    @inlinable public var isEmpty: Bool { length == 0 }

    /// The action at position `index`.
    /// - Precondition: `0 <= index < count`.
    @inlinable public subscript(index: Int) -> Int {
        precondition(index >= 0 && index < length, "action index out of range")
        return Int(storage[index])
    }

    /// Empties the buffer, keeping its capacity.
    @inlinable public mutating func removeAll() {
        length = 0
    }

    /// Appends one action.
    @inlinable public mutating func append(_ action: Int) {
        let value = Int32(truncatingIfNeeded: action)
        if length < storage.count { storage[length] = value } else { storage.append(value) }
        length += 1
    }

    /// Replaces the contents with up to `maxCount` actions that `body` writes in place,
    /// returning how many it wrote: no per-action append, and no allocation or clearing
    /// once the buffer has held `maxCount` actions.
    @inlinable
    public mutating func fill(upTo maxCount: Int, _ body: (UnsafeMutablePointer<Int32>) -> Int) {
        if storage.count < maxCount { storage.append(contentsOf: repeatElement(0, count: maxCount - storage.count)) }
        let written = storage.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
        precondition(written >= 0 && written <= maxCount, "fill wrote \(written) of at most \(maxCount) actions")
        length = written
    }

    /// Whether `action` is in the buffer (the play loop checks every decision with it).
    /// - Complexity: O(n), eight actions a comparison.
    @inlinable public func contains(_ action: Int) -> Bool {
        let target = Int32(truncatingIfNeeded: action)
        return withUnsafeActions { actions in
            guard let base = actions.baseAddress else { return false }
            let raw = UnsafeRawPointer(base)
            let wanted = SIMD8<Int32>(repeating: target)
            var i = 0
            while i &+ 8 <= actions.count {
                if any(raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Int32>.self) .== wanted) { return true }
                i &+= 8
            }
            while i < actions.count {
                if actions[i] == target { return true }
                i &+= 1
            }
            return false
        }
    }

    /// Lends `body` the actions in place, as 32-bit values (a strategy's scan of the list
    /// without a bounds check an action).
    @inlinable public func withUnsafeActions<R>(_ body: (UnsafeBufferPointer<Int32>) -> R) -> R {
        storage.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[..<length])) }
    }

    /// The actions as an array of `Int` (allocates; for tests and tools).
    public var actions: [Int] { storage[..<length].map(Int.init) }
}
