extension Sequence where Element: Hashable {
    /// The elements in their order, each once (its first time).
    public func withoutRepeats() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
