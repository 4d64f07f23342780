import Foundation
import Synchronization

/// A model that names its own fields for the templates, instead of being read by reflection: for rows a page lists
/// by the dozen.
protocol TemplateParent {
    func child(named name: String) -> Any?
}

/// A mustache template, parsed once. Cinn's templates use variables (`{{name}}`, `{{a.b}}`, `{{.}}`), unescaped
/// variables (`{{{name}}}`, `{{& name}}`), sections and inverted sections, comments and partials (`{{> name}}`); a
/// tag alone on its line takes the line with it, and a partial alone on its line is indented as the tag was.
///
/// The parsing rules are swift-mustache 2.1's, the engine the pages were first written for, so that every page
/// renders byte for byte as it did (the page snapshots guard it); docs/DESIGN.md, "Rendering", says why Cinn renders
/// its own. Values are read as swift-mustache read them too: a section renders once for a value, once per element
/// for a list, not at all for false, nil or an empty list; a name missing (or nil) at one level of the context is
/// looked for in the levels around it.
struct PageTemplate: Sendable {
    enum Token: Sendable {
        case text(String)
        case variable(Name, escaped: Bool)
        case section(Name, PageTemplate, inverted: Bool)
        case partial(String, indentation: String?)
    }

    /// A name as a tag writes it, split once: `.` the innermost value; `a.b` the `b` of the first `a` found from the
    /// innermost level out; `.a` the `a` of the innermost value only.
    struct Name: Sendable {
        let parts: [String]
        let innermostOnly: Bool

        init(_ text: String) {
            innermostOnly = text.hasPrefix(".")
            parts = text == "." ? [] : text.split(separator: ".").map(String.init)
        }
    }

    enum ParseError: Error, CustomStringConvertible {
        case sectionCloseNameIncorrect, unfinishedName, expectedSectionEnd
        case unsupportedTag(Character)

        var description: String {
            switch self {
            case .sectionCloseNameIncorrect: "a section closed with another section's name"
            case .unfinishedName: "a tag without its closing braces"
            case .expectedSectionEnd: "a section that is never closed"
            case .unsupportedTag(let kind): "a {{\(kind) tag, which Cinn's templates do not use"
            }
        }
    }

    let tokens: [Token]

    init(_ text: String) throws(ParseError) {
        var parser = TemplateParser(text)
        self = try Self.parse(&parser, section: nil, newLine: true)
    }

    private init(tokens: [Token]) { self.tokens = tokens }

    // MARK: Parsing (swift-mustache's rules)

    private static func parse(_ parser: inout TemplateParser, section: String?, newLine startsLine: Bool) throws(ParseError) -> PageTemplate
    {
        var tokens: [Token] = []
        var newLine = startsLine
        var whiteSpaceBefore = ""
        while !parser.reachedEnd {
            if newLine { whiteSpaceBefore = parser.read { $0 == " " || $0 == "\t" } }
            let text = parser.readUntilTagOrNewline()
            if let current = parser.current, current.isNewline {
                tokens.append(.text(whiteSpaceBefore + text + String(current)))
                newLine = true
                parser.advance()
                continue
            }
            if !text.isEmpty {
                tokens.append(.text(whiteSpaceBefore + text))
                whiteSpaceBefore = ""
                newLine = false
            }
            guard let kind = parser.current else { break }
            var standalone = false
            switch kind {
            case "#", "^":
                parser.advance()
                let name = try parser.name()
                if newLine && parser.lineFinished() {
                    standalone = true
                } else if !whiteSpaceBefore.isEmpty {
                    tokens.append(.text(whiteSpaceBefore))
                    whiteSpaceBefore = ""
                }
                let body = try parse(&parser, section: name, newLine: standalone && newLine)
                tokens.append(.section(Name(name), body, inverted: kind == "^"))
            case "/":
                parser.advance()
                guard try parser.name() == section else { throw .sectionCloseNameIncorrect }
                if !(newLine && parser.lineFinished()), !whiteSpaceBefore.isEmpty {
                    tokens.append(.text(whiteSpaceBefore))
                }
                return PageTemplate(tokens: tokens)
            case "!":
                parser.advance()
                try parser.skipComment()
                standalone = newLine && parser.lineFinished()
            case "{", "&":
                if !whiteSpaceBefore.isEmpty {
                    tokens.append(.text(whiteSpaceBefore))
                    whiteSpaceBefore = ""
                }
                parser.advance()
                let name = try parser.name()
                if kind == "{" { guard parser.read("}") else { throw .unfinishedName } }
                tokens.append(.variable(Name(name), escaped: false))
            case ">":
                parser.advance()
                let name = try parser.partialName()
                if !whiteSpaceBefore.isEmpty { tokens.append(.text(whiteSpaceBefore)) }
                if newLine && parser.lineFinished() {
                    standalone = true
                    tokens.append(.partial(name, indentation: whiteSpaceBefore))
                } else {
                    tokens.append(.partial(name, indentation: nil))
                }
                whiteSpaceBefore = ""
            case "<", "$", "=", "%":
                throw .unsupportedTag(kind)
            default:
                if !whiteSpaceBefore.isEmpty {
                    tokens.append(.text(whiteSpaceBefore))
                    whiteSpaceBefore = ""
                }
                tokens.append(.variable(Name(try parser.name()), escaped: true))
            }
            newLine = standalone
        }
        guard section == nil else { throw .expectedSectionEnd }
        return PageTemplate(tokens: tokens)
    }

    // MARK: Rendering

    /// The context a template is rendered in: the values of the enclosing sections, the innermost last.
    struct Context {
        var stack: [TemplateValue]
        var indentation: String?
        let partials: [String: PageTemplate]
    }

    func render(_ context: Context, into out: inout String) {
        guard let indentation = context.indentation, !indentation.isEmpty else {
            for token in tokens { render(token, context, into: &out) }
            return
        }
        // In a partial indented by its tag: each token that starts a line starts with the indentation.
        var text = ""
        for token in tokens {
            var piece = ""
            render(token, context, into: &piece)
            if !piece.isEmpty, text.last == "\n" { text += indentation }
            text += piece
        }
        out += text
    }

    private func render(_ token: Token, _ context: Context, into out: inout String) {
        switch token {
        case .text(let text):
            out += text
        case .variable(let name, let escaped):
            guard let value = Self.value(named: name, in: context.stack) else { return }
            let text = value.text
            if escaped { Self.appendEscaped(text, to: &out) } else { out += text }
        case .section(let name, let body, let inverted):
            let value = Self.value(named: name, in: context.stack)
            inverted ? Self.renderInverted(value, body, context, into: &out) : Self.renderSection(value, body, context, into: &out)
        case .partial(let name, let indentation):
            guard let partial = context.partials[name] else { return }
            var inner = context
            if let indentation { inner.indentation = (context.indentation ?? "") + indentation }
            partial.render(inner, into: &out)
        }
    }

    private static func renderSection(_ value: TemplateValue?, _ body: PageTemplate, _ context: Context, into out: inout String) {
        switch value {
        case .none, .flag(false): return
        case .flag(true): body.render(context, into: &out)
        case .list(let elements):
            for element in elements { body.render(context.pushing(element), into: &out) }
        case .some(let value): body.render(context.pushing(value), into: &out)
        }
    }

    private static func renderInverted(_ value: TemplateValue?, _ body: PageTemplate, _ context: Context, into out: inout String) {
        switch value {
        case .none, .flag(false): body.render(context, into: &out)
        case .list(let elements) where elements.isEmpty: body.render(context.pushing(.list(elements)), into: &out)
        case .some: return
        }
    }

    /// `name`'s value in the context `stack`.
    private static func value(named name: Name, in stack: [TemplateValue]) -> TemplateValue? {
        guard let first = name.parts.first, !name.innermostOnly else {
            return name.parts.reduce(stack.last) { value, part in value?.child(named: part) }
        }
        for level in stack.reversed() {
            if let found = level.child(named: first) {
                return name.parts.dropFirst().reduce(found) { value, part in value?.child(named: part) }
            }
        }
        return nil
    }

    /// `text` with `<`, `>`, `&`, `"` and `'` written as HTML entities.
    static func appendEscaped(_ text: String, to out: inout String) {
        guard text.utf8.contains(where: { $0 == 0x3C || $0 == 0x3E || $0 == 0x26 || $0 == 0x22 || $0 == 0x27 }) else {
            out += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
    }
}

extension PageTemplate.Context {
    func pushing(_ value: TemplateValue) -> Self {
        var context = self
        context.stack.append(value)
        return context
    }
}

/// A value as a template reads it: text, a flag, a list, a model whose fields are read by name, or anything else
/// (numbers, dates, ids), written as it describes itself.
enum TemplateValue {
    case text(String)
    case flag(Bool)
    case list([TemplateValue])
    case model(TemplateModel)
    case other(Any)

    /// `value` as the template reads it; nil for an absent optional.
    static func wrap(_ value: Any) -> TemplateValue? {
        // The values most fields hold, without a Mirror (a cast also takes a present optional's value out).
        if let text = value as? String { return .text(text) }
        if let flag = value as? Bool { return .flag(flag) }
        if let number = value as? Int { return .other(number) }
        if let number = value as? Double { return .other(number) }
        if let parent = value as? TemplateParent { return .model(TemplateModel(parent: parent)) }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.flatMap { wrap($0.value) }
        case .collection:
            guard let array = value as? [Any] else { return .other(value) }
            return .list(array.map { element in wrap(element) ?? .other(element) })
        case .struct, .class, .tuple:
            return value is CustomStringConvertible ? .other(value) : .model(TemplateModel(mirror: mirror, value: value))
        default:
            return .other(value)
        }
    }

    /// The field `name` of this value, if it has one.
    func child(named name: String) -> TemplateValue? {
        switch self {
        case .model(let model): model.child(named: name)
        case .other(let value): Mirror(reflecting: value).children.first { $0.label == name }.flatMap { Self.wrap($0.value) }
        case .text, .flag, .list: nil
        }
    }

    /// How a variable writes it.
    var text: String {
        switch self {
        case .text(let text): text
        case .flag(let flag): String(describing: flag)
        case .other(let value): String(describing: value)
        case .model(let model): String(describing: model.value)
        case .list(let elements): String(describing: elements)
        }
    }
}

/// A model's fields, each read once per render when the template first asks for it: from the model itself
/// (`TemplateParent`), or by reflection, only the fields the template asks for (where each field of a type sits among
/// its `Mirror`'s children is learnt once per type). Made for one render; not `Sendable`.
final class TemplateModel {
    let value: Any
    private let parent: TemplateParent?
    private let mirror: Mirror?
    private let offsets: [String: Int]
    private var wrapped: [String: TemplateValue?] = [:]

    init(parent: TemplateParent) {
        value = parent
        self.parent = parent
        mirror = nil
        offsets = [:]
    }

    init(mirror: Mirror, value: Any) {
        self.value = value
        parent = nil
        self.mirror = mirror
        // A type that describes itself (`CustomReflectable`) may have other children for each value: learnt each time.
        offsets = Self.offsets(of: type(of: value), mirror, keep: !(value is CustomReflectable))
    }

    func child(named name: String) -> TemplateValue? {
        if let known = wrapped[name] { return known }
        let value = field(named: name).flatMap(TemplateValue.wrap)
        wrapped[name] = .some(value)
        return value
    }

    private func field(named name: String) -> Any? {
        if let parent { return parent.child(named: name) }
        guard let mirror, let offset = offsets[name] else { return nil }
        if offset < 0 {
            // A class's inherited field: found in its superclasses' mirrors.
            var level = mirror.superclassMirror
            while let current = level {
                if let child = current.children.first(where: { $0.label == name }) { return child.value }
                level = current.superclassMirror
            }
            return nil
        }
        let children = mirror.children
        return children[children.index(children.startIndex, offsetBy: offset)].value
    }

    /// Where each field of `type` sits among its mirror's children (a superclass's fields at -1), learnt once per type
    /// when `keep`.
    private static func offsets(of type: Any.Type, _ mirror: Mirror, keep: Bool) -> [String: Int] {
        let key = ObjectIdentifier(type)
        if keep, let known = known.withLock({ $0[key] }) { return known }
        var offsets: [String: Int] = [:]
        for (offset, child) in mirror.children.enumerated() {
            if let label = child.label, offsets[label] == nil { offsets[label] = offset }
        }
        var level = mirror.superclassMirror
        while let current = level {
            for child in current.children {
                if let label = child.label, offsets[label] == nil { offsets[label] = -1 }
            }
            level = current.superclassMirror
        }
        if keep { known.withLock { $0[key] = offsets } }
        return offsets
    }

    private static let known = Mutex<[ObjectIdentifier: [String: Int]]>([:])
}

/// Reads a template's text the way swift-mustache's parser does, by `Character`.
private struct TemplateParser {
    let text: String
    var index: String.Index

    init(_ text: String) {
        self.text = text
        index = text.startIndex
    }

    var reachedEnd: Bool { index == text.endIndex }
    var current: Character? { reachedEnd ? nil : text[index] }

    mutating func advance() { index = text.index(after: index) }

    mutating func read(while matches: (Character) -> Bool) -> String {
        let start = index
        while let character = current, matches(character) { advance() }
        return String(text[start..<index])
    }

    mutating func read(_ string: String) -> Bool {
        guard text[index...].hasPrefix(string) else { return false }
        index = text.index(index, offsetBy: string.count)
        return true
    }

    /// The text up to a tag's `{{` (read past) or a line break (not read).
    mutating func readUntilTagOrNewline() -> String {
        var text = ""
        while let character = current {
            if character.isNewline { break }
            if character == "{" {
                if read("{{") { break }
                text.append(character)
                advance()
                continue
            }
            text.append(character)
            advance()
        }
        return text
    }

    static let nameCharacters = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?*")
    static let partialNameCharacters = nameCharacters.union("/")

    mutating func name() throws(PageTemplate.ParseError) -> String {
        try name(Self.nameCharacters)
    }

    mutating func partialName() throws(PageTemplate.ParseError) -> String {
        _ = read { $0.isWhitespace }
        return try name(Self.partialNameCharacters)
    }

    private mutating func name(_ characters: Set<Character>) throws(PageTemplate.ParseError) -> String {
        _ = read { $0.isWhitespace }
        let name = read { characters.contains($0) }
        _ = read { $0.isWhitespace }
        guard read("}}") else { throw .unfinishedName }
        return name
    }

    mutating func skipComment() throws(PageTemplate.ParseError) {
        while !reachedEnd {
            if read("}}") { return }
            advance()
        }
        throw .unfinishedName
    }

    /// Whether only spaces and tabs are left on the line; if so, reads past them and the line break.
    mutating func lineFinished() -> Bool {
        if reachedEnd { return true }
        var ahead = self
        _ = ahead.read { $0 == " " || $0 == "\t" }
        guard let character = ahead.current, character.isNewline else { return false }
        ahead.advance()
        index = ahead.index
        return true
    }
}
