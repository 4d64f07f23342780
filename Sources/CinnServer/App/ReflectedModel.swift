import Mustache

/// A page model as its template reads it: each field looked up by name in a table made once. swift-mustache reads
/// a model that is not a `MustacheParent` by reflection, making a `Mirror` of the whole value (every field boxed) for
/// each name it looks up, and again at each level of the context it climbs to find a name; a page's rows and their
/// fields multiply that. `ReflectedModel` reflects each value once per render, when the template first reaches it.
///
/// What is wrapped: structs, classes and tuples that describe themselves in no other way; arrays element by
/// element; the children of a model that names them itself (`ReflectedParent`). Left as they are: strings, numbers,
/// Booleans, optionals' absence, enums, values that print themselves (`CustomStringConvertible`: dates, ids), and the
/// types swift-mustache treats specially (its lambdas and custom renderables). A model is wrapped for one render: it
/// is not `Sendable`.
final class ReflectedModel: MustacheParent {
    private var fields: [String: Any] = [:]
    /// The fields' values as the template gets them, wrapped on the first look-up.
    private var wrapped: [String: Any?] = [:]

    private init(_ mirror: Mirror) {
        var current: Mirror? = mirror
        while let level = current {
            for child in level.children {
                guard let label = child.label, fields[label] == nil else { continue }
                fields[label] = child.value
            }
            current = level.superclassMirror
        }
    }

    func child(named name: String) -> Any? {
        if let known = wrapped[name] { return known }
        let value = fields[name].flatMap(Self.wrap)
        wrapped[name] = .some(value)
        return value
    }

    /// What a template is rendered with: `model`, wrapped.
    static func rendering(_ model: Any) -> Any { wrap(model) ?? model }

    /// `value` as a template should read it: an optional unwrapped, a model wrapped, an array's elements wrapped.
    static func wrap(_ value: Any) -> Any? {
        // The values most fields hold, without a Mirror (a cast also takes a present optional's value out).
        if let text = value as? String { return text }
        if let flag = value as? Bool { return flag }
        if let number = value as? Int { return number }
        if let number = value as? Double { return number }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.flatMap { wrap($0.value) }
        case .collection:
            guard let array = value as? [Any] else { return value }
            return array.map { element in wrap(element) as Any }
        case .struct, .class, .tuple:
            if let parent = value as? MustacheParent, !(parent is ReflectedModel) { return ReflectedParent(parent) }
            if value is CustomStringConvertible || value is MustacheParent || value is MustacheLambda
                || value is MustacheCustomRenderable
            {
                return value
            }
            return ReflectedModel(mirror)
        default:
            return value
        }
    }
}

/// A model that names its own children (`MustacheParent`): its children wrapped as `ReflectedModel` wraps them, once.
final class ReflectedParent: MustacheParent {
    private let parent: MustacheParent
    private var wrapped: [String: Any?] = [:]

    init(_ parent: MustacheParent) { self.parent = parent }

    func child(named name: String) -> Any? {
        if let known = wrapped[name] { return known }
        let value = parent.child(named: name).flatMap(ReflectedModel.wrap)
        wrapped[name] = .some(value)
        return value
    }
}
