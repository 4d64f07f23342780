import CinnCharts
import CinnCore
import CinnImport
import CinnJournal
import CinnStore
import Foundation
import Hummingbird

/// The import pages: upload a file, see what it holds, answer its unit, import it (with progress), and undo an import.
/// The page's script only adds progress; without it the forms still work.
struct ImportWebController {
    typealias Context = JournalRequestContext
    let pages: PageRenderer
    /// Where uploads wait between "check the file" and "import" (their form fields wait in the database): every server
    /// on one database is given the same directory.
    let pendingDirectory: URL

    func addRoutes(to router: RouterGroup<Context>) {
        router.get("/import", use: importForm)
        router.post("/import", use: checkImport)
        router.post("/import/{token}", use: runImport)
        router.post("/import/{token}/unit", use: recheckImport)
        router.post("/import/{token}/date-order", use: recheckDateOrder)
        router.get("/import/progress/{id}", use: importProgress)
        router.get("/imports/{id}/undo", use: confirmUndoImport)
        router.post("/imports/{id}/undo", use: undoImport)
    }

    @Sendable func importForm(_ request: Request, context: Context) async throws -> Response {
        WebResponse.html(try await renderImportForm(context, notice: Done.notice(request)))
    }

    func renderImportForm(_ context: Context, error: String? = nil, notice: String? = nil) async throws -> String {
        let batches = try await context.journal.imports()
        let formats = Journal.importFormats.filter {
            FoodDatabaseFormat(rawValue: $0) == nil || FoodDatabaseFormat.mayImport(context.account)
        }
        let model = ImportPage(
            formats: formats, batches: batches, timeZone: try await context.journal.settings().timeZone,
            formError: error)
        return pages.render("import", model, title: "Import", tab: .importing, notice: notice, formToken: context.formToken)
    }

    /// Receives the upload, keeps it aside under a token, and shows what importing it would do.
    @Sendable func checkImport(_ request: Request, context: Context) async throws -> Response {
        let upload = try await MultipartUpload.receive(request, fileField: "file", maximumBytes: maximumImportBytes)
        guard let file = upload.file else { throw CinnError.invalid("file", "choose a file to import") }
        do {
            try FoodDatabaseFormat.checkImport(upload.fields["format"], account: context.account)
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
        var fields = upload.fields
        fields["file_name"] = upload.fileName
        fields.removeValue(forKey: "_csrf")
        let pending = PendingImport(directory: pendingDirectory, token: UUID().lowercasedString, fields: fields)
        do {
            try await pending.keep(file: file, journal: context.journal)
        } catch {
            try? FileManager.default.removeItem(at: file)
            await pending.discard(context.journal)
            throw error
        }
        return try await check(context, pending, progressID: ImportProgressBoard.validID(upload.fields["progress"]))
    }

    /// A kept upload whose file did not say its unit, checked again with the unit the person chose.
    @Sendable func recheckImport(_ request: Request, context: Context) async throws -> Response {
        var pending = try await waiting(context)
        let form = try await FormFields(request: request)
        let unit = try MassUnit.parse(form["unit"] ?? "", field: "unit")
        try await pending.setField("unit", unit.rawValue, journal: context.journal)
        return try await check(context, pending, progressID: nil)
    }

    /// A kept upload whose dates (a spreadsheet's) did not say their order, checked again with the order chosen.
    @Sendable func recheckDateOrder(_ request: Request, context: Context) async throws -> Response {
        var pending = try await waiting(context)
        let form = try await FormFields(request: request)
        let order = try MyFitnessPalExport.DateOrder.parse(form["date_order"] ?? "")
        try await pending.setField("date_order", order.rawValue, journal: context.journal)
        return try await check(context, pending, progressID: nil)
    }

    /// The upload kept under the request's token, if it is this user's.
    /// - Parameter claiming: taken for its import: no other request finds it afterwards.
    private func waiting(_ context: Context, claiming: Bool = false) async throws -> PendingImport {
        guard let token = context.parameters.get("token"), UUID(text: token) != nil,
            let fields = try await context.journal.waitingUpload(token: token, claiming: claiming)
        else {
            throw CinnError.notFound("this import is no longer waiting; upload the file again")
        }
        return PendingImport(directory: pendingDirectory, token: token, fields: fields)
    }

    /// Shows what importing a kept upload would do. A file that does not say its unit asks for it (and stays kept);
    /// a file that cannot be read shows why beside the form.
    private func check(_ context: Context, _ pending: PendingImport, progressID: String?) async throws -> Response {
        do {
            let report = try await ImportProgressBoard.tracking(context.journal, progressID, phase: "checking") { progress in
                try await pending.run(journal: context.journal, dryRun: true, progress: progress)
            }
            let model = ImportReportPage(report: report, token: pending.token, skipInvalid: pending.skipInvalid)
            if model.token == nil { await pending.discard(context.journal) }
            return WebResponse.html(pages.render("import-report", model, title: "Import", tab: .importing, formToken: context.formToken))
        } catch let error as CinnError where error.code == .invalidInput && ImportQuestionPage.asks(error) {
            let model = ImportQuestionPage(error, token: pending.token, fileName: pending.fields["file_name"])
            return WebResponse.html(
                pages.render("import-question", model, title: "Import", tab: .importing, formToken: context.formToken),
                status: .unprocessableContent)
        } catch let error as CinnError where error.code == .invalidInput {
            await pending.discard(context.journal)
            return WebResponse.html(try await renderImportForm(context, error: error.message), status: .unprocessableContent)
        } catch {
            await pending.discard(context.journal)
            throw error
        }
    }

    @Sendable func runImport(_ request: Request, context: Context) async throws -> Response {
        var pending = try await waiting(context, claiming: true)
        // "Import the good rows" of a file with invalid ones (in the query: the form may be sent as multipart by its script).
        if request.query("skip_invalid") == "true" { pending.fields["skip_invalid"] = "true" }
        let report: ImportReport
        do {
            report = try await ImportProgressBoard.tracking(context.journal, pending.token, phase: "importing") { progress in
                try await pending.run(journal: context.journal, dryRun: false, progress: progress)
            }
        } catch {
            await pending.discard(context.journal)
            throw error
        }
        await pending.discard(context.journal)
        let model = ImportReportPage(report: report, token: nil, skipInvalid: pending.skipInvalid)
        return WebResponse.html(pages.render("import-report", model, title: "Import", tab: .importing, formToken: context.formToken))
    }

    /// How far the import polling with `id` has got, as JSON; 404 when there is none.
    @Sendable func importProgress(_ request: Request, context: Context) async throws -> Response {
        guard let id = ImportProgressBoard.validID(context.parameters.get("id")),
            let entry = try await ImportProgressBoard.entry(id, journal: context.journal)
        else {
            throw CinnError.notFound("no import in progress with that id")
        }
        let body = try JSONEncoder().encode(entry)
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    @Sendable func confirmUndoImport(_ request: Request, context: Context) async throws -> Response {
        guard let id = context.parameters.get("id").flatMap(Int64.init),
            let batch = try await context.journal.imports().first(where: { $0.id == id })
        else {
            throw CinnError.notFound("no such import")
        }
        guard batch.undoneAt == nil else { return WebResponse.redirect("/import") }
        let model = UndoImportPage(
            batch: batch, contents: try await context.journal.importContents(id: id),
            timeZone: try await context.journal.settings().timeZone)
        return WebResponse.html(pages.render("undo-import", model, title: "Undo import", tab: .importing, formToken: context.formToken))
    }

    @Sendable func undoImport(_ request: Request, context: Context) async throws -> Response {
        guard let id = context.parameters.get("id").flatMap(Int64.init) else { throw CinnError.notFound("no such import") }
        try await context.journal.undoImport(id: id)
        return Done.importUndone.redirect(to: "/import")
    }
}

/// An uploaded file kept between the check (a dry run) and the import: the file in the upload directory, its form
/// fields in the database (which also says whose it is).
struct PendingImport {
    let directory: URL
    let token: String
    var fields: [String: String]

    var file: URL { directory.appendingPathComponent("\(token).upload") }

    var skipInvalid: Bool { fields["skip_invalid"] == "true" }

    /// How long an upload waits for its "import" before it is removed.
    static let lifetime: TimeInterval = 3600

    /// Moves the upload into the directory and records it as `journal`'s; uploads that were checked but never
    /// imported are removed on the way.
    func keep(file upload: URL, journal: Journal) async throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        removeExpiredFiles()
        try FileManager.default.moveItem(at: upload, to: file)
        let expired = try await journal.keepWaitingUpload(
            token: token, fields: fields,
            lifetime: Self.lifetime)
        for token in expired { try? FileManager.default.removeItem(at: directory.appendingPathComponent("\(token).upload")) }
    }

    func run(journal: Journal, dryRun: Bool, progress: @escaping @Sendable (ImportProgress) -> Void) async throws -> ImportReport {
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw CinnError.notFound("this import is no longer waiting; upload the file again")
        }
        let format = fields["format"].flatMap { $0.isEmpty ? nil : $0 }
        let unit = try fields["unit"].flatMap { $0.isEmpty ? nil : $0 }.map { text in try MassUnit.parse(text) }
        let dateOrder = try fields["date_order"].flatMap { $0.isEmpty ? nil : $0 }.map { text in
            try MyFitnessPalExport.DateOrder.parse(text)
        }
        return try await ServerMetrics.counting {
            try await namingUpload(file, as: fields["file_name"]) {
                try await journal.importAnyFile(
                    at: file, fileName: fields["file_name"], format: format, unit: unit, dateOrder: dateOrder,
                    mode: ImportMode(dryRun: dryRun, skipInvalid: skipInvalid), progress: progress)
            }
        }
    }

    /// Changes one of the kept upload's form fields (the unit chosen afterwards).
    mutating func setField(_ name: String, _ value: String, journal: Journal) async throws {
        fields[name] = value
        try await journal.setWaitingUploadFields(fields, token: token)
    }

    func discard(_ journal: Journal) async {
        try? FileManager.default.removeItem(at: file)
        try? await journal.removeWaitingUpload(token: token)
    }

    /// Removes files older than an upload waits (a server stopped before it could record or discard one).
    func removeExpiredFiles() {
        let limit = Date().addingTimeInterval(-Self.lifetime)
        let files =
            (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        for file in files {
            let modified = (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
            if let modified, modified < limit { try? FileManager.default.removeItem(at: file) }
        }
    }
}
