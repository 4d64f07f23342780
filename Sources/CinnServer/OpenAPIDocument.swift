/// The OpenAPI 3.1 description of `/api/v1`, served at `/api/openapi.yaml`. A test compares its
/// paths and methods with the router's own list, so the two cannot drift apart.
enum OpenAPIDocument {
    static let yaml = """
    openapi: 3.1.0
    info:
      title: Cinn API
      version: "1"
      description: |
        The JSON API of Cinn, a self-hosted health journal. Weights are stored in kilograms and shown in
        the unit asked for (`unit=kg|lb|st`, default: the user's display unit). Errors have the shape
        `{"error":{"code":"…","message":"…","field":"…"}}`: 400 malformed JSON, 404 not found,
        409 conflict, 422 invalid input (with the field), 500 anything else.
    servers:
      - url: http://127.0.0.1:8080
    paths:
      /api/v1/weigh-ins:
        get:
          summary: List weigh-ins, newest first
          parameters:
            - {name: from, in: query, schema: {type: string, format: date}}
            - {name: to, in: query, schema: {type: string, format: date}}
            - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 10000, default: 100}}
            - {name: offset, in: query, schema: {type: integer, minimum: 0, default: 0}}
            - $ref: "#/components/parameters/unit"
          responses:
            "200":
              description: The weigh-ins
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      weigh_ins: {type: array, items: {$ref: "#/components/schemas/WeighIn"}}
            "422": {$ref: "#/components/responses/Invalid"}
        post:
          summary: Add a weigh-in
          requestBody:
            required: true
            content:
              application/json:
                schema: {$ref: "#/components/schemas/NewWeighIn"}
          responses:
            "201":
              description: Stored
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/WeighIn"}
            "400": {$ref: "#/components/responses/Malformed"}
            "409": {$ref: "#/components/responses/Conflict"}
            "422": {$ref: "#/components/responses/Invalid"}
        delete:
          summary: Delete every weigh-in of a local day
          parameters:
            - {name: date, in: query, required: true, schema: {type: string, format: date}}
          responses:
            "200":
              description: How many were deleted
              content:
                application/json:
                  schema: {type: object, properties: {deleted: {type: integer}}}
            "422": {$ref: "#/components/responses/Invalid"}
      /api/v1/weigh-ins/{id}:
        parameters:
          - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
        get:
          summary: One weigh-in
          parameters:
            - $ref: "#/components/parameters/unit"
          responses:
            "200":
              description: The weigh-in
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/WeighIn"}
            "404": {$ref: "#/components/responses/NotFound"}
        patch:
          summary: Change a weigh-in; absent fields stay, "note":null clears the note
          requestBody:
            required: true
            content:
              application/json:
                schema:
                  type: object
                  properties:
                    weight: {type: number}
                    unit: {$ref: "#/components/schemas/Unit"}
                    date: {type: string}
                    measured_at: {type: string}
                    note: {type: [string, "null"]}
          responses:
            "200":
              description: The changed weigh-in
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/WeighIn"}
            "404": {$ref: "#/components/responses/NotFound"}
            "422": {$ref: "#/components/responses/Invalid"}
        delete:
          summary: Delete a weigh-in
          responses:
            "204": {description: Deleted}
            "404": {$ref: "#/components/responses/NotFound"}
      /api/v1/trend:
        get:
          summary: The trend, rate, energy balance, forecast and verdict (the same shape as `cinn trend --format json`)
          parameters:
            - {name: from, in: query, schema: {type: string, format: date}}
            - {name: to, in: query, description: "The as-of day (default today)", schema: {type: string, format: date}}
            - {name: range, in: query, description: "7, 30, 91 or 365 days ending at `to`, or all (default)", schema: {type: string, enum: [week, month, quarter, year, all]}}
            - $ref: "#/components/parameters/unit"
          responses:
            "200":
              description: The trend
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Trend"}
            "422": {$ref: "#/components/responses/Invalid"}
      /api/v1/goal:
        get:
          summary: The current goal
          parameters:
            - $ref: "#/components/parameters/unit"
          responses:
            "200":
              description: The goal
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Goal"}
            "404": {$ref: "#/components/responses/NotFound"}
        put:
          summary: Set the goal
          requestBody:
            required: true
            content:
              application/json:
                schema:
                  type: object
                  required: [weight]
                  properties:
                    weight: {type: number}
                    unit: {$ref: "#/components/schemas/Unit"}
                    rate_per_week: {type: number, description: "Planned amount per week towards the goal"}
          responses:
            "200":
              description: The goal
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Goal"}
            "422": {$ref: "#/components/responses/Invalid"}
        delete:
          summary: Clear the goal
          responses:
            "204": {description: Cleared}
            "404": {$ref: "#/components/responses/NotFound"}
      /api/v1/settings:
        get:
          summary: The user's settings
          responses:
            "200":
              description: Settings
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Settings"}
        put:
          summary: Change settings; absent fields stay
          requestBody:
            required: true
            content:
              application/json:
                schema: {$ref: "#/components/schemas/Settings"}
          responses:
            "200":
              description: Settings
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Settings"}
            "422": {$ref: "#/components/responses/Invalid"}
      /api/v1/imports:
        get:
          summary: Earlier imports, newest first
          responses:
            "200":
              description: Imports
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      imports: {type: array, items: {$ref: "#/components/schemas/ImportBatch"}}
        post:
          summary: Import a weight file sent as the request body (streamed to disk, never held whole)
          parameters:
            - {name: format, in: query, schema: {type: string, enum: [csv, hackdiet, libra, fitbit, google-health]}, description: "Default: detected from the content"}
            - {name: unit, in: query, schema: {$ref: "#/components/schemas/Unit"}, description: "For files without a unit (Fitbit JSON, CSV without one)"}
            - {name: dry_run, in: query, schema: {type: boolean, default: false}}
            - {name: skip_invalid, in: query, schema: {type: boolean, default: false}}
            - {name: file_name, in: query, schema: {type: string}}
          requestBody:
            required: true
            content:
              application/octet-stream:
                schema: {type: string, format: binary}
          responses:
            "201":
              description: Imported
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/ImportReport"}
            "200":
              description: A dry run, or nothing new in the file
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/ImportReport"}
            "422":
              description: The file, or some rows, are invalid; nothing was written
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      error: {$ref: "#/components/schemas/ErrorBody"}
                      report: {$ref: "#/components/schemas/ImportReport"}
      /api/v1/imports/{id}/undo:
        post:
          summary: Undo an import (its weigh-ins are deleted; importing again brings them back)
          parameters:
            - {name: id, in: path, required: true, schema: {type: integer}}
          responses:
            "200":
              description: How many weigh-ins were removed
              content:
                application/json:
                  schema: {type: object, properties: {removed: {type: integer}}}
            "404": {$ref: "#/components/responses/NotFound"}
            "409": {$ref: "#/components/responses/Conflict"}
      /api/v1/export:
        get:
          summary: Every weigh-in, streamed (CSV re-imports into Cinn; JSON also has the goal and settings)
          parameters:
            - {name: format, in: query, schema: {type: string, enum: [csv, json], default: json}}
          responses:
            "200":
              description: The export
              content:
                text/csv: {schema: {type: string}}
                application/json: {schema: {type: object}}
    components:
      parameters:
        unit:
          name: unit
          in: query
          schema: {$ref: "#/components/schemas/Unit"}
      schemas:
        Unit: {type: string, enum: [kg, lb, st]}
        WeighIn:
          type: object
          required: [id, weight, unit, date, measured_at, source]
          properties:
            id: {type: string, format: uuid}
            weight: {type: number}
            unit: {$ref: "#/components/schemas/Unit"}
            date: {type: string, format: date, description: "The local day"}
            measured_at: {type: string, description: "Local time with its UTC offset, e.g. 2024-03-09T07:41:03-05:00"}
            note: {type: [string, "null"]}
            source: {type: string}
        NewWeighIn:
          type: object
          required: [weight]
          properties:
            id: {type: string, format: uuid, description: "A client-generated id (UUIDv7 preferred); made by the server when absent"}
            weight: {type: number, exclusiveMinimum: 0, description: "At most 700 kg"}
            unit: {$ref: "#/components/schemas/Unit"}
            date: {type: string, description: "YYYY-MM-DD (stored at local noon) or an ISO 8601 time"}
            measured_at: {type: string, description: "ISO 8601 time, with its offset if known"}
            note: {type: string}
        Trend:
          type: object
          required: [unit, days, rate_per_week, energy_balance_per_day, forecast_date, verdict]
          properties:
            unit: {$ref: "#/components/schemas/Unit"}
            days:
              type: array
              items:
                type: object
                required: [date, weight, interpolated, value, trend]
                properties:
                  date: {type: string, format: date}
                  weight: {type: [number, "null"], description: "The day's mean weigh-in; null on a day without one"}
                  interpolated: {type: boolean}
                  value: {type: number, description: "The weight the trend used"}
                  trend: {type: number}
            rate_per_week: {type: [number, "null"]}
            energy_balance_per_day: {type: [number, "null"], description: "kcal per day; negative is a deficit"}
            forecast_date: {type: [string, "null"], format: date}
            verdict:
              type: object
              required: [answer, reason]
              properties:
                answer: {type: string, enum: ["yes", "no", "unknown"]}
                reason: {type: string}
        Goal:
          type: object
          properties:
            weight: {type: number}
            unit: {$ref: "#/components/schemas/Unit"}
            rate_per_week: {type: [number, "null"]}
            set_on: {type: string, format: date}
        Settings:
          type: object
          properties:
            unit: {$ref: "#/components/schemas/Unit"}
            trend_method: {type: string, enum: [exact, pencil]}
            time_zone: {type: string, description: "IANA name, e.g. Europe/Berlin"}
        ImportReport:
          type: object
          properties:
            format: {type: string}
            rows_read: {type: integer}
            imported: {type: integer}
            duplicates: {type: integer}
            rejected_count: {type: integer}
            rejected:
              type: array
              items:
                type: object
                properties:
                  line: {type: integer}
                  field: {type: [string, "null"]}
                  reason: {type: string}
            dry_run: {type: boolean}
            import_id: {type: [integer, "null"]}
        ImportBatch:
          type: object
          properties:
            id: {type: integer}
            format: {type: string}
            file_name: {type: [string, "null"]}
            created_at: {type: string}
            rows_read: {type: integer}
            imported: {type: integer}
            duplicates: {type: integer}
            rejected: {type: integer}
            undone_at: {type: [string, "null"]}
        ErrorBody:
          type: object
          required: [code, message]
          properties:
            code: {type: string}
            message: {type: string}
            field: {type: string}
      responses:
        Malformed:
          description: The body is not valid JSON
          content: {application/json: {schema: {type: object, properties: {error: {$ref: "#/components/schemas/ErrorBody"}}}}}
        Invalid:
          description: Invalid input; the field is named
          content: {application/json: {schema: {type: object, properties: {error: {$ref: "#/components/schemas/ErrorBody"}}}}}
        NotFound:
          description: No such record for this user
          content: {application/json: {schema: {type: object, properties: {error: {$ref: "#/components/schemas/ErrorBody"}}}}}
        Conflict:
          description: Conflicts with what is stored
          content: {application/json: {schema: {type: object, properties: {error: {$ref: "#/components/schemas/ErrorBody"}}}}}

    """
}
