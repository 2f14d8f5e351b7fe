/// A reusable list of dense integer actions.
///
/// Games write their legal actions into a caller's buffer, which keeps its capacity
/// between turns: after the first few turns of a match, filling it allocates nothing.
public struct ActionBuffer: Sendable {
    @usableFromInline var storage: [Int32]

    /// An empty buffer with room for `capacity` actions before it must grow.
    public init(capacity: Int = 256) {
        storage = []
        storage.reserveCapacity(capacity)
    }

    /// The number of actions in the buffer.
    @inlinable public var count: Int { storage.count }

    @inlinable public var isEmpty: Bool { storage.isEmpty }

    /// The action at position `index`.
    @inlinable public subscript(index: Int) -> Int { Int(storage[index]) }

    /// Empties the buffer, keeping its capacity.
    @inlinable public mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
    }

    /// Appends one action.
    @inlinable public mutating func append(_ action: Int) {
        storage.append(Int32(truncatingIfNeeded: action))
    }

    /// Replaces the contents with up to `maxCount` actions that `body` writes in place,
    /// returning how many it wrote: no per-action append, and no allocation once the
    /// buffer has held `maxCount` actions.
    @inlinable
    public mutating func fill(upTo maxCount: Int, _ body: (UnsafeMutablePointer<Int32>) -> Int) {
        storage.removeAll(keepingCapacity: true)
        storage.append(contentsOf: repeatElement(0, count: maxCount))
        let written = storage.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
        storage.removeLast(maxCount - written)
    }

    /// Whether `action` is in the buffer.
    /// - Complexity: O(n).
    @inlinable public func contains(_ action: Int) -> Bool {
        storage.contains(Int32(truncatingIfNeeded: action))
    }

    /// The actions as an array of `Int` (allocates; for tests and tools).
    public var actions: [Int] { storage.map(Int.init) }
}
