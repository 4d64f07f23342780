import CinnCore
import CinnJournal
import Hummingbird
import NIOCore

/// The web app's style sheet and scripts, served from `/static/` so that pages hold no inline script or style
/// (the Content-Security-Policy allows none). The files are embedded in the binary (`Package.swift`).
enum StaticAssets {
    struct Asset {
        let contentType: String
        let body: ByteBuffer

        init(contentType: String, bytes: some Collection<UInt8>) {
            self.contentType = contentType
            body = ByteBuffer(bytes: bytes)
        }
    }

    static let all: [String: Asset] = [
        "cinn.css": Asset(contentType: "text/css; charset=utf-8", bytes: Array(styleSheet.utf8)),
        "progress.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.progress_js),
        "food-search.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.food_search_js),
        "food-preview.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.food_preview_js),
        "time-zone.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.time_zone_js),
    ]

    /// The web app's one style sheet (`/static/cinn.css`): the layout's styles (`App/layout.css`), then each
    /// feature's, in this order (a later rule wins).
    static let styleSheet = [
        PackageResources.layout_css, PackageResources.food_css, PackageResources.energy_css, PackageResources.workouts_css,
        PackageResources.accounts_css, PackageResources.glucose_css, PackageResources.health_css,
    ].map(Templates.text).joined(separator: "\n")

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
