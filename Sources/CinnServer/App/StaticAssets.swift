import CinnCore
import CinnJournal
import Crypto
import HTTPTypes
import Hummingbird
import NIOCore

/// The web app's style sheet, scripts, manifest and icons, served from `/static/` so that pages hold no inline script
/// or style (the Content-Security-Policy allows none). The files are embedded in the binary (`Package.swift`).
///
/// Each file has a version, a short hash of its bytes, which is also its `ETag`. An address with the current version
/// (`/static/cinn.css?v=…`, as the layout links the style sheet) never changes its answer, so it is cached for a
/// year; a plain address (the pages' scripts) is cached but checked again on every use, a `304 Not Modified` when
/// the browser's copy is current. A new binary with a changed file thus never serves a stale one.
enum StaticAssets {
    struct Asset {
        let contentType: String
        let body: ByteBuffer
        /// The first 16 hex digits of the SHA-256 of `body`.
        let version: String

        init(contentType: String, bytes: some Collection<UInt8>) {
            self.contentType = contentType
            body = ByteBuffer(bytes: bytes)
            version = Self.version(of: bytes)
        }

        /// The first 16 hex digits of the SHA-256 of `bytes`.
        static func version(of bytes: some Collection<UInt8>) -> String {
            let digits = Array("0123456789abcdef")
            return String(SHA256.hash(data: Array(bytes)).prefix(8).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
        }

        /// The strong entity tag of `body`.
        var entityTag: String { "\"\(version)\"" }
    }

    static let all: [String: Asset] = [
        "cinn.css": Asset(contentType: "text/css; charset=utf-8", bytes: Array(styleSheet.utf8)),
        "progress.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.progress_js),
        "food-search.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.food_search_js),
        "barcode-scan.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.barcode_scan_js),
        "trend-chart.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.trend_chart_js),
        "food-preview.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.food_preview_js),
        "food-nom.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.food_nom_js),
        "time-zone.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.time_zone_js),
        "glucose-live.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.glucose_live_js),
        "workout-log.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.workout_log_js),
        "recipe-totals.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.recipe_totals_js),
        "copy.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.copy_js),
        // Installing Cinn as an app: its manifest and icons (drawn in design/icons).
        "manifest.webmanifest": Asset(contentType: "application/manifest+json", bytes: PackageResources.manifest_webmanifest),
        "icon-192.png": Asset(contentType: "image/png", bytes: PackageResources.icon_192_png),
        "icon-512.png": Asset(contentType: "image/png", bytes: PackageResources.icon_512_png),
        "icon-maskable-512.png": Asset(contentType: "image/png", bytes: PackageResources.icon_maskable_512_png),
        "apple-touch-icon.png": Asset(contentType: "image/png", bytes: PackageResources.apple_touch_icon_png),
        "app.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.app_js),
    ]

    /// The service worker (`App/Offline/sw.js`), served at `/sw.js` so that its scope is the whole app, with this
    /// binary's version (a hash of every file's) and the versioned addresses it stores when it installs, the style
    /// sheet first. A new binary with any file changed is a new worker, which replaces the stored files.
    static let serviceWorker: Asset = {
        let files = all.sorted { ($0.key == "cinn.css" ? 0 : 1, $0.key) < ($1.key == "cinn.css" ? 0 : 1, $1.key) }
        let addresses = files.map { name, asset in "\"/static/\(name)?v=\(asset.version)\"" }
        let version = String(Asset.version(of: Array(addresses.joined().utf8)).prefix(12))
        let script = Templates.text(PackageResources.sw_js)
            .replacingOccurrences(of: "'__VERSION__'", with: "'\(version)'")
            .replacingOccurrences(of: "__PRECACHE__", with: "[" + addresses.joined(separator: ", ") + "]")
        return Asset(contentType: "text/javascript; charset=utf-8", bytes: Array(script.utf8))
    }()

    /// The web app's one style sheet (`/static/cinn.css`): the layout's styles (`App/layout.css`), then each
    /// feature's, in this order (a later rule wins).
    static let styleSheet = [
        PackageResources.layout_css, PackageResources.food_css, PackageResources.energy_css, PackageResources.workouts_css,
        PackageResources.accounts_css, PackageResources.glucose_css, PackageResources.health_css,
    ].map(Templates.text).joined(separator: "\n")

    /// Each file's current address as a mustache partial named by its plain address:
    /// `{{> /static/cinn.css}}` renders `/static/cinn.css?v=…`.
    static var addressPartials: [(String, String)] {
        all.map { name, asset in ("/static/" + name, "/static/\(name)?v=\(asset.version)") }
    }

    /// The `Cache-Control` of an address with the current version, and of any other.
    static let immutable = "public, max-age=31536000, immutable"
    static let revalidate = "no-cache"

    static func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        router.get("sw.js") { request, _ in
            // Checked again on every use, as browsers check a worker's script.
            let headers: HTTPFields = [.eTag: serviceWorker.entityTag, .cacheControl: revalidate]
            if let tags = request.headers[.ifNoneMatch], matches(tags, serviceWorker.entityTag) {
                return Response(status: .notModified, headers: headers)
            }
            var response = Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: serviceWorker.body))
            response.headers[.contentType] = serviceWorker.contentType
            return response
        }
        router.get("static/{name}") { request, context in
            guard let name = context.parameters.get("name"), let asset = all[name] else {
                throw CinnError.notFound("There is no such file.")
            }
            let current = request.uri.queryParameters.get("v") == asset.version
            let headers: HTTPFields = [.eTag: asset.entityTag, .cacheControl: current ? immutable : revalidate]
            if let tags = request.headers[.ifNoneMatch], matches(tags, asset.entityTag) {
                return Response(status: .notModified, headers: headers)
            }
            var response = Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: asset.body))
            response.headers[.contentType] = asset.contentType
            return response
        }
    }

    /// Whether an `If-None-Match` value names `tag`: `*`, or a list of tags compared weakly (a `W/` prefix is
    /// ignored; a tag holds no blank).
    static func matches(_ ifNoneMatch: String, _ tag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            let candidate = candidate.filter { $0 != " " && $0 != "\t" }
            return candidate == "*" || (candidate.hasPrefix("W/") ? String(candidate.dropFirst(2)) : candidate) == tag
        }
    }
}
