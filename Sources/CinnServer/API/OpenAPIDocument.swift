import CinnOpenAPI

/// The OpenAPI 3.1 description of `/api/v1`, served at `/api/openapi.yaml`. A test compares its
/// paths and methods with the router's own list, so the two cannot drift apart.
///
/// The document is `API/openapi.yaml`; the C target `CinnOpenAPI` embeds its bytes in the binary (`#embed`), since
/// SwiftPM's `.embedInCode` writes them as one Swift array literal, which takes far longer to compile.
enum OpenAPIDocument {
    static let yaml: String = {
        var count = 0
        let bytes = cinn_openapi_yaml(&count)
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }()
}
