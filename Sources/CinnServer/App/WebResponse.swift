import Foundation
import Hummingbird

/// The responses of the web app's handlers.
enum WebResponse {
    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// "See other": after a form is posted, the browser loads `location`.
    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }
}
