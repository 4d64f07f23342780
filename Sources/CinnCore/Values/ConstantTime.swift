/// Compares two secrets without stopping at the first difference, so that how long a comparison takes says nothing
/// about how much of a guess was right.
public func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let a = Array(a.utf8), b = Array(b.utf8)
    guard a.count == b.count else { return false }
    return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
}
