/// A canonical YAML value read as JSON: numbers and booleans typed, timestamps as ISO-8601
/// strings. In this module with the JSON writer, so the writer is specialised for it.
package struct YAMLAsJSON: JSONWritable {
    package let value: YAMLValue

    package init(_ value: YAMLValue) { self.value = value }

    package var jsonNode: JSONNode<YAMLAsJSON> {
        switch value {
        case let .string(text): return .scalar(.string(text))
        case .null: return .scalar(.null)
        case let .raw(text):
            if text == "true" { return .scalar(.bool(true)) }
            if text == "false" { return .scalar(.bool(false)) }
            if text == "null" { return .scalar(.null) }
            if let number = Double(text), !text.contains(":") { return .scalar(.number(number)) }
            return .scalar(.string(text))
        case let .list(items, _): return .array(items.map(YAMLAsJSON.init))
        case let .map(pairs, _): return .object(pairs.map { (key: $0.0, value: YAMLAsJSON($0.1)) })
        }
    }
}

extension YAMLValue {
    /// The pretty JSON text of this value read as JSON (`YAMLAsJSON`), nested `indent` levels deep.
    public func jsonText(indent: Int) -> String { JSONValue.serialized(YAMLAsJSON(self), indent: indent) }
}
