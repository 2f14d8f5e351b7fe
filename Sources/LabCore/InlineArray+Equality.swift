extension InlineArray where Element: Equatable {
    /// Element-wise equality (`InlineArray` is not `Equatable` itself), for the
    /// hand-written `==` of fixed-size states and observations.
    @inlinable
    public func sameElements(_ other: Self) -> Bool {
        for i in indices where self[i] != other[i] { return false }
        return true
    }
}
