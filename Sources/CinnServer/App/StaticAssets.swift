import CinnCore
import CinnJournal
import Hummingbird
import NIOCore

/// The web app's style sheet and scripts, served from `/static/` so that pages hold no inline script or style
/// (the Content-Security-Policy allows none).
enum StaticAssets {
    struct Asset {
        let contentType: String
        let body: ByteBuffer

        init(contentType: String, body: String) {
            self.contentType = contentType
            self.body = ByteBuffer(string: body)
        }
    }

    static let all: [String: Asset] = [
        "cinn.css": Asset(contentType: "text/css; charset=utf-8", body: Templates.styleSheet),
        "progress.js": Asset(contentType: "text/javascript; charset=utf-8", body: ImportTemplates.progressScript),
        "food-search.js": Asset(contentType: "text/javascript; charset=utf-8", body: FoodTemplates.searchScript),
        "food-preview.js": Asset(contentType: "text/javascript; charset=utf-8", body: FoodTemplates.previewScript),
        "time-zone.js": Asset(contentType: "text/javascript; charset=utf-8", body: EnergyTemplates.timeZoneScript),
    ]

    static func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        router.get("static/{name}") { _, context in
            guard let name = context.parameters.get("name"), let asset = all[name] else {
                throw CinnError.notFound("There is no such file.")
            }
            return Response(status: .ok, headers: [.contentType: asset.contentType, .cacheControl: "public, max-age=3600"],
                            body: ResponseBody(byteBuffer: asset.body))
        }
    }
}
