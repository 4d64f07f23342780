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
        `{"error":{"code":"…","message":"…","field":"…"}}`: 400 malformed JSON, 401 not logged in,
        403 forbidden (also a change a browser sends from another site), 404 not found (also another
        user's record), 405 a method the server does not answer, 409 conflict (an id already used),
        413 a body larger than the route takes, 422 invalid input (with the field; also query
        parameters), 429 too many failed log-ins, 502 Open Food Facts unreachable or unreadable,
        503 too busy checking log-ins, 500 anything else.

        Single-user mode (`cinn serve`) needs no credentials. Hosted mode (`cinn serve --accounts`)
        needs a bearer token on every route but `POST /api/v1/login`: get one there with a name and
        password, or make one on the web app's Account page.
    servers:
      - url: http://127.0.0.1:8080
    security:
      - {}
      - bearer: []
    paths:
      /api/v1/login:
        post:
          summary: Log in for a bearer token (hosted mode)
          description: Failed log-ins are counted per name and per client address; after 5 within 15 minutes both answer 429 until the window has passed.
          security: []
          requestBody:
            required: true
            content:
              application/json:
                schema:
                  type: object
                  required: [name, password]
                  properties:
                    name: {type: string}
                    password: {type: string}
                    token_name: {type: [string, "null"], description: "What the token is for, such as the device (default: API log-in)"}
          responses:
            "201":
              description: A new token; its secret is in this answer only
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/NewToken"}
            "401": {$ref: "#/components/responses/Unauthenticated"}
            "429": {$ref: "#/components/responses/TooMany"}
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
            "422": {$ref: "#/components/responses/Invalid"}
            "404": {$ref: "#/components/responses/NoAccounts"}
            "503": {$ref: "#/components/responses/Unavailable"}
      /api/v1/account:
        get:
          summary: Who the token belongs to (hosted mode)
          responses:
            "200":
              description: The account
              content:
                application/json:
                  schema:
                    type: object
                    required: [name, role]
                    properties:
                      name: {type: string}
                      role: {type: string, enum: [admin, member]}
            "401": {$ref: "#/components/responses/Unauthenticated"}
            "404": {$ref: "#/components/responses/NoAccounts"}
      /api/v1/tokens:
        get:
          summary: The user's API tokens, newest first, revoked ones included (hosted mode)
          responses:
            "200":
              description: The tokens, without their secrets
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      tokens: {type: array, items: {$ref: "#/components/schemas/Token"}}
            "404": {$ref: "#/components/responses/NoAccounts"}
        post:
          summary: Make an API token (hosted mode)
          requestBody:
            required: true
            content:
              application/json:
                schema: {type: object, required: [name], properties: {name: {type: string, minLength: 1, maxLength: 60, pattern: '\\S', description: "Not only spaces; trimmed, 1 to 60 characters remain"}}}
          responses:
            "201":
              description: A new token; its secret is in this answer only
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/NewToken"}
            "422": {$ref: "#/components/responses/Invalid"}
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
            "404": {$ref: "#/components/responses/NoAccounts"}
      /api/v1/tokens/{id}:
        delete:
          summary: Revoke one of the user's tokens (hosted mode)
          parameters:
            - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
          responses:
            "204": {description: Revoked; requests with it answer 401 from now on}
            "404": {$ref: "#/components/responses/NotFound"}
      /api/v1/weigh-ins:
        get:
          summary: List weigh-ins, newest first
          parameters:
            - {name: from, in: query, allowEmptyValue: true, schema: {type: string, format: date}}
            - {name: to, in: query, allowEmptyValue: true, schema: {type: string, format: date}}
            - {name: limit, in: query, allowEmptyValue: true, schema: {type: integer, minimum: 1, maximum: 10000, default: 100}}
            - {name: offset, in: query, allowEmptyValue: true, schema: {type: integer, minimum: 0, maximum: 2147483647, default: 0}}
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
            "413": {$ref: "#/components/responses/TooLarge"}
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
            "422": {$ref: "#/components/responses/Invalid"}
        patch:
          summary: Change a weigh-in; absent fields stay, "note":null clears the note
          requestBody:
            required: true
            content:
              application/json:
                schema:
                  type: object
                  properties:
                    weight: {type: [number, "null"]}
                    unit: {anyOf: [{$ref: "#/components/schemas/Unit"}, {type: "null"}]}
                    date: {type: [string, "null"], minLength: 1}
                    measured_at: {type: [string, "null"], minLength: 1}
                    note: {type: [string, "null"]}
                    confirm: {type: [boolean, "null"], description: "Save a changed weight that looks like a typo as it is. Without it, a new weight more than 10 % from the trend of the 60 days before the reading's day (or without one, outside 30-250 kg) is refused with 422 and code needs_confirmation, field weight"}
          responses:
            "200":
              description: The changed weigh-in
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/WeighIn"}
            "404": {$ref: "#/components/responses/NotFound"}
            "422": {$ref: "#/components/responses/Invalid"}
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
        delete:
          summary: Delete a weigh-in
          responses:
            "204": {description: Deleted}
            "404": {$ref: "#/components/responses/NotFound"}
      /api/v1/trend:
        get:
          summary: The trend, rate, energy balance, forecast and verdict (the same shape as `cinn trend --format json`)
          parameters:
            - {name: from, in: query, allowEmptyValue: true, schema: {type: string, format: date}}
            - {name: to, in: query, allowEmptyValue: true, description: "The as-of day (default today)", schema: {type: string, format: date}}
            - {name: range, in: query, allowEmptyValue: true, description: "7, 30, 91 or 365 days ending at `to`, or all (default)", schema: {type: string, enum: [week, month, quarter, year, all]}}
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
            "422": {$ref: "#/components/responses/Invalid"}
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
                    unit: {anyOf: [{$ref: "#/components/schemas/Unit"}, {type: "null"}]}
                    rate_per_week: {type: [number, "null"], description: "Planned amount per week towards the goal"}
          responses:
            "200":
              description: The goal
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Goal"}
            "422": {$ref: "#/components/responses/Invalid"}
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
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
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
      /api/v1/profile:
        get:
          summary: The profile (sex, birth date, height, activity), units, goal and how the calorie target is made
          responses:
            "200":
              description: Profile
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Profile"}
        put:
          summary: Change the profile; absent fields stay. Everything is checked before anything is saved, then saved in one transaction
          requestBody:
            required: true
            content:
              application/json:
                schema: {$ref: "#/components/schemas/ProfileChange"}
          responses:
            "200":
              description: Profile
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Profile"}
            "422": {$ref: "#/components/responses/Invalid"}
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
      /api/v1/energy:
        get:
          summary: Formula and adaptive expenditure side by side, the target, time to goal, the weekly check-in and daily history
          description: |
            Formula: Mifflin–St Jeor (Katch–McArdle with a body-fat value from the last 30 days) × the activity factor.
            Adaptive: over the window, mean intake of the days marked complete − trend change × 7700 kcal/kg ÷ days; needs
            4 complete days and a weigh-in in every 7 days, else the last qualifying estimate is held (`adaptive.held`) and
            `adaptive_status` says why. The blend weights both by inverse variance. All energies in kcal.
          parameters:
            - {name: date, in: query, allowEmptyValue: true, schema: {type: string, format: date}, description: "As-of day (default today)"}
            - {name: window, in: query, allowEmptyValue: true, schema: {type: integer, minimum: 14, maximum: 56, default: 21}}
            - {name: days, in: query, allowEmptyValue: true, schema: {type: integer, minimum: 0, maximum: 1096, default: 90}, description: "Days of history"}
          responses:
            "200":
              description: Energy
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Energy"}
            "422": {$ref: "#/components/responses/Invalid"}
      /api/v1/today:
        get:
          summary: "Can I nom nom today? Today's calorie budget and the trend in one answer"
          description: |
            On the remaining kcal rounded to a whole number (r): without a target, the trend alone decides; r < 0 is `no`;
            r < 200 is `careful`; a trend behind plan, flat or moving away from the goal is `careful`; else `yes`.
          responses:
            "200":
              description: The answer
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Today"}
      /api/v1/days/{date}/status:
        put:
          summary: Mark a day's food log complete or partial (null clears); only complete days count towards the adaptive estimate
          parameters:
            - {name: date, in: path, required: true, schema: {type: string, format: date}}
          requestBody:
            required: true
            content:
              application/json:
                schema:
                  type: object
                  properties:
                    status: {type: [string, "null"], enum: [complete, partial, null]}
          responses:
            "200":
              description: The day's status
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      date: {type: string, format: date}
                      status: {type: [string, "null"]}
            "422": {$ref: "#/components/responses/Invalid"}
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
      /api/v1/body-fat:
        post:
          summary: Record a body-fat measurement (2–75 %)
          requestBody:
            required: true
            content:
              application/json:
                schema:
                  type: object
                  required: [percent]
                  properties:
                    percent: {type: number, minimum: 2, maximum: 75}
                    date: {type: [string, "null"], format: date, description: "Default (or null) today"}
          responses:
            "201":
              description: Recorded
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      id: {type: string, format: uuid}
                      date: {type: string, format: date}
                      percent: {type: string}
            "422": {$ref: "#/components/responses/Invalid"}
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
      /api/v1/exercises:
        get:
          summary: Every exercise, most recently done first, with its current estimated one-rep max (best of the last 30 days)
          responses:
            "200":
              description: The exercises
              content:
                application/json:
                  schema:
                    type: object
                    required: [unit, formula, exercises]
                    properties:
                      unit: {$ref: "#/components/schemas/Unit"}
                      formula: {$ref: "#/components/schemas/OneRepMaxFormula"}
                      exercises: {type: array, items: {$ref: "#/components/schemas/ExerciseSummary"}}
      /api/v1/exercises/{id}:
        get:
          summary: One exercise - current and best estimate with the sets (and workouts) they came from, the best estimate of each day, records, weekly volume
          description: |
            Estimates use the user's formula (Brzycki by default: weight × 36 / (37 − reps)); a single is its weight; warm-ups and
            drop sets never count; sets above 10 reps only with include_high_reps=true; 37 reps or more never. `shown` is the
            estimate as a whole number in the unit, truncated.
          parameters:
            - {name: id, in: path, required: true, schema: {type: string}, description: "The exercise's id, or any of its names"}
            - {name: include_high_reps, in: query, allowEmptyValue: true, schema: {type: boolean}}
            - {name: weeks, in: query, allowEmptyValue: true, schema: {type: integer, minimum: 1, maximum: 520}, description: "Weeks of volume, default 12"}
          responses:
            "200":
              description: The exercise
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/ExercisePage"}
            "404": {$ref: "#/components/responses/NotFound"}
            "422": {$ref: "#/components/responses/Invalid"}
      /api/v1/exercises/{id}/alias-of:
        put:
          summary: Make exercise {id} another name of an exercise, so their histories count as one
          parameters:
            - {name: id, in: path, required: true, schema: {type: string}, description: "The id or a name of the exercise that becomes an alias"}
          requestBody:
            required: true
            content:
              application/json:
                schema:
                  type: object
                  required: [exercise]
                  properties:
                    exercise: {type: string, description: "The id or a name of the exercise it is another name of"}
          responses:
            "200":
              description: The exercise merged into, with its aliases
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/ExerciseSummary"}
            "404": {$ref: "#/components/responses/NotFound"}
            "422": {$ref: "#/components/responses/Invalid"}
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
        delete:
          summary: Make an alias its own exercise again
          parameters:
            - {name: id, in: path, required: true, schema: {type: string}}
          responses:
            "204": {description: Separated}
            "404": {$ref: "#/components/responses/NotFound"}
            "422": {$ref: "#/components/responses/Invalid"}
      /api/v1/lifts/formula:
        put:
          summary: Choose the one-rep-max formula
          requestBody:
            required: true
            content:
              application/json:
                schema:
                  type: object
                  required: [formula]
                  properties:
                    formula: {$ref: "#/components/schemas/OneRepMaxFormula"}
          responses:
            "200":
              description: The formula now used
              content:
                application/json:
                  schema: {type: object, properties: {formula: {$ref: "#/components/schemas/OneRepMaxFormula"}}}
            "422": {$ref: "#/components/responses/Invalid"}
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
      /api/v1/workouts:
        get:
          summary: Workouts, newest first
          parameters:
            - {name: limit, in: query, allowEmptyValue: true, schema: {type: integer, minimum: 1, maximum: 500}}
            - {name: offset, in: query, allowEmptyValue: true, schema: {type: integer, minimum: 0, maximum: 2147483647}}
          responses:
            "200":
              description: A page of workouts
              content:
                application/json:
                  schema:
                    type: object
                    required: [unit, total, workouts]
                    properties:
                      unit: {$ref: "#/components/schemas/Unit"}
                      total: {type: integer}
                      workouts: {type: array, items: {$ref: "#/components/schemas/WorkoutSummary"}}
            "422": {$ref: "#/components/responses/Invalid"}
      /api/v1/workouts/{id}:
        get:
          summary: A workout with its sets in order
          parameters:
            - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
          responses:
            "200":
              description: The workout
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Workout"}
            "404": {$ref: "#/components/responses/NotFound"}
        delete:
          summary: Delete a workout and its sets
          parameters:
            - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
          responses:
            "204": {description: Deleted}
            "404": {$ref: "#/components/responses/NotFound"}
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
          summary: Import a weight file or a MyFitnessPal export (its zip or one of its CSVs) sent as the request body (streamed to disk)
          parameters:
            - {name: format, in: query, allowEmptyValue: true, schema: {type: string, enum: [csv, hackdiet, libra, fitbit, google-health, myfitnesspal, fitbod, strong, fitnotes]}, description: "Default: detected from the content"}
            - {name: unit, in: query, allowEmptyValue: true, schema: {$ref: "#/components/schemas/Unit"}, description: "For files without a unit (Fitbit JSON, CSV without one); forces a MyFitnessPal export's weight unit"}
            - {name: dry_run, in: query, allowEmptyValue: true, schema: {type: boolean, default: false}}
            - {name: skip_invalid, in: query, allowEmptyValue: true, schema: {type: boolean, default: false}}
            - {name: file_name, in: query, allowEmptyValue: true, schema: {type: string}}
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
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
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
            - {name: format, in: query, allowEmptyValue: true, schema: {type: string, enum: [csv, json], default: json}}
          responses:
            "200":
              description: The export
              content:
                text/csv: {schema: {type: string}}
                application/json: {schema: {type: object}}
            "422": {$ref: "#/components/responses/Invalid"}
      /api/v1/nutrients:
        get:
          summary: The nutrient catalogue, with canonical units and FDA Daily Values (adults and children 4+)
          responses:
            "200":
              description: The catalogue
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      nutrients:
                        type: array
                        items:
                          type: object
                          properties:
                            key: {type: string}
                            name: {type: string}
                            unit: {type: string, enum: [kcal, g, mg, "µg"]}
                            group: {type: string}
                            daily_value: {type: [number, "null"]}
      /api/v1/foods:
        get:
          summary: The user's own foods, by name
          parameters:
            - {name: limit, in: query, allowEmptyValue: true, schema: {type: integer, minimum: 1, maximum: 5000, default: 500}}
            - {name: offset, in: query, allowEmptyValue: true, schema: {type: integer, minimum: 0, maximum: 2147483647, default: 0}}
          responses:
            "200":
              description: The foods
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      foods: {type: array, items: {$ref: "#/components/schemas/Food"}}
            "422": {$ref: "#/components/responses/Invalid"}
        post:
          summary: Make a food from a nutrition label
          requestBody:
            required: true
            content:
              application/json:
                schema: {$ref: "#/components/schemas/NewFood"}
          responses:
            "201":
              description: The food, with nutrients per 100 g (or ml)
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Food"}
            "400": {$ref: "#/components/responses/Malformed"}
            "422": {$ref: "#/components/responses/Invalid"}
            "413": {$ref: "#/components/responses/TooLarge"}
      /api/v1/foods/search:
        get:
          summary: Search foods as you type
          description: |
            Every word must match the start of a word of the name or brand ("greek yog", "chick brea").
            Ranked: the user's own and recent foods, then exact and prefix name matches (generic foods
            before branded products), then other matches, then brand-only matches. Foods with the
            same name and brand fold into one result (`other_versions`).
          parameters:
            - {name: q, in: query, allowEmptyValue: true, description: "Words of the name or brand; empty or absent: nothing found", schema: {type: string}}
            - {name: limit, in: query, allowEmptyValue: true, schema: {type: integer, minimum: 1, maximum: 100, default: 20}}
          responses:
            "200":
              description: The results, best first
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      results: {type: array, items: {$ref: "#/components/schemas/FoodSummary"}}
            "422": {$ref: "#/components/responses/Invalid"}
      /api/v1/foods/barcode/{barcode}:
        get:
          summary: Look a barcode up
          description: |
            The user's own foods first, then the food database, then the Open Food Facts product API when
            the server has it configured. A product found there is cached as the user's own food
            (`found_in: open_food_facts`): keep it, edit it (PUT /api/v1/foods/{id}) or reject it
            (DELETE /api/v1/foods/{id}). An unknown barcode is a 404: make the food with that barcode.
          parameters:
            - {name: barcode, in: path, required: true, schema: {type: string, pattern: "^[0-9]{8,14}$"}}
          responses:
            "200":
              description: Where the food was found, and the food
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      found_in: {type: string, enum: [mine, database, open_food_facts]}
                      food: {$ref: "#/components/schemas/Food"}
            "404": {$ref: "#/components/responses/NotFound"}
            "422": {$ref: "#/components/responses/Invalid"}
            "502":
              description: Open Food Facts could not be reached or sent a response Cinn cannot read; nothing was cached
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/ErrorBody"}
      /api/v1/foods/{id}:
        parameters:
          - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
        get:
          summary: One food
          responses:
            "200":
              description: The food
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Food"}
            "404": {$ref: "#/components/responses/NotFound"}
        put:
          summary: Replace one of the user's own foods (logged entries keep their snapshot)
          requestBody:
            required: true
            content:
              application/json:
                schema: {$ref: "#/components/schemas/NewFood"}
          responses:
            "200":
              description: The food
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Food"}
            "404": {$ref: "#/components/responses/NotFound"}
            "422": {$ref: "#/components/responses/Invalid"}
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
        delete:
          summary: Delete one of the user's own foods (logged entries keep their snapshot)
          responses:
            "204": {description: Deleted}
            "404": {$ref: "#/components/responses/NotFound"}
      /api/v1/food-entries:
        get:
          summary: The food history, newest first, searchable and paged
          parameters:
            - {name: search, in: query, allowEmptyValue: true, schema: {type: string}, description: "part of the name or brand"}
            - {name: limit, in: query, allowEmptyValue: true, schema: {type: integer, minimum: 1, maximum: 1000, default: 50}}
            - {name: offset, in: query, allowEmptyValue: true, schema: {type: integer, minimum: 0, maximum: 2147483647, default: 0}}
          responses:
            "200":
              description: The entries
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      entries: {type: array, items: {$ref: "#/components/schemas/FoodEntry"}}
            "422": {$ref: "#/components/responses/Invalid"}
        post:
          summary: Log one or several foods, each at its own time, all or none
          requestBody:
            required: true
            content:
              application/json:
                schema:
                  type: object
                  required: [entries]
                  properties:
                    entries:
                      type: array
                      minItems: 1
                      maxItems: 100
                      items:
                        type: object
                        required: [food_id]
                        properties:
                          id: {type: [string, "null"], format: uuid, description: "the client's own id, if it made one"}
                          food_id: {type: string, format: uuid}
                          servings: {type: [number, "null"], exclusiveMinimum: 0, default: 1}
                          serving: {type: [string, "null"], description: "a serving label of the food; default its first"}
                          meal: {type: [string, "null"], description: "breakfast, lunch, dinner, snacks or a name of the user's"}
                          time: {type: [string, "null"], minLength: 1, description: "YYYY-MM-DD or an ISO 8601 time; default (or null) now"}
                          note: {type: [string, "null"]}
          responses:
            "201":
              description: The new entries
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      entries: {type: array, items: {$ref: "#/components/schemas/FoodEntry"}}
            "400": {$ref: "#/components/responses/Malformed"}
            "422": {$ref: "#/components/responses/Invalid"}
            "413": {$ref: "#/components/responses/TooLarge"}
            "409": {$ref: "#/components/responses/Conflict"}
      /api/v1/food-entries/{id}:
        parameters:
          - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
        get:
          summary: One entry
          responses:
            "200":
              description: The entry
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/FoodEntry"}
            "404": {$ref: "#/components/responses/NotFound"}
        patch:
          summary: Change servings (nutrients scale), meal, time or note; absent fields stay, a null note clears it
          requestBody:
            required: true
            content:
              application/json:
                schema:
                  type: object
                  properties:
                    servings: {type: [number, "null"], exclusiveMinimum: 0}
                    meal: {type: [string, "null"]}
                    time: {type: [string, "null"], minLength: 1, description: "YYYY-MM-DD or an ISO 8601 time; null: unchanged or now"}
                    note: {type: [string, "null"]}
          responses:
            "200":
              description: The entry
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/FoodEntry"}
            "404": {$ref: "#/components/responses/NotFound"}
            "422": {$ref: "#/components/responses/Invalid"}
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
        delete:
          summary: Delete an entry
          responses:
            "204": {description: Deleted}
            "404": {$ref: "#/components/responses/NotFound"}
      /api/v1/days/{date}:
        get:
          summary: A day of the food log, by meal, with totals, % Daily Value and what is left of the calorie target
          parameters:
            - {name: date, in: path, required: true, schema: {type: string, format: date}}
          responses:
            "200":
              description: The day
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Day"}
            "422": {$ref: "#/components/responses/Invalid"}
      /api/v1/days/{date}/copy:
        post:
          summary: Copy a day's entries, or one meal's, to another day at the same times
          parameters:
            - {name: date, in: path, required: true, schema: {type: string, format: date}}
          requestBody:
            required: true
            content:
              application/json:
                schema:
                  type: object
                  required: [to]
                  properties:
                    to: {type: string, format: date}
                    meal: {type: [string, "null"], description: "copy only this meal"}
                    to_meal: {type: [string, "null"], description: "into this meal instead"}
          responses:
            "201":
              description: The new entries
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      entries: {type: array, items: {$ref: "#/components/schemas/FoodEntry"}}
            "422": {$ref: "#/components/responses/Invalid"}
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
      /api/v1/recent-foods:
        get:
          summary: The last foods logged (30 by default), most recent first
          parameters:
            - {name: limit, in: query, allowEmptyValue: true, schema: {type: integer, minimum: 1, maximum: 100, default: 30}}
          responses:
            "200":
              description: The foods, with when each was last used
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      foods: {type: array, items: {$ref: "#/components/schemas/FoodSummary"}}
            "422": {$ref: "#/components/responses/Invalid"}
      /api/v1/frequent-foods:
        get:
          summary: The foods logged most often in the last days
          parameters:
            - {name: days, in: query, allowEmptyValue: true, schema: {type: integer, minimum: 1, maximum: 3660, default: 90}}
            - {name: limit, in: query, allowEmptyValue: true, schema: {type: integer, minimum: 1, maximum: 100, default: 30}}
          responses:
            "200":
              description: The foods with how many times each was logged
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      foods:
                        type: array
                        items:
                          type: object
                          properties:
                            food: {$ref: "#/components/schemas/FoodSummary"}
                            count: {type: integer}
            "422": {$ref: "#/components/responses/Invalid"}
      /api/v1/presets:
        get:
          summary: Saved foods and saved meals
          responses:
            "200":
              description: The presets
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      presets: {type: array, items: {$ref: "#/components/schemas/Preset"}}
        post:
          summary: Save a food with a serving count (food_id), or a logged meal (from_date and meal)
          requestBody:
            required: true
            content:
              application/json:
                schema:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string, minLength: 1, maxLength: 100}
                    meal: {type: [string, "null"]}
                    food_id: {type: [string, "null"], format: uuid}
                    servings: {type: [number, "null"], exclusiveMinimum: 0, default: 1}
                    serving: {type: [string, "null"]}
                    from_date: {type: [string, "null"], format: date}
          responses:
            "201":
              description: The preset
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Preset"}
            "422": {$ref: "#/components/responses/Invalid"}
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
      /api/v1/presets/{id}:
        delete:
          summary: Delete a preset
          parameters:
            - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
          responses:
            "204": {description: Deleted}
            "404": {$ref: "#/components/responses/NotFound"}
      /api/v1/presets/{id}/log:
        post:
          summary: Log a preset in one step
          parameters:
            - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
          requestBody:
            required: true
            content:
              application/json:
                schema:
                  type: object
                  properties:
                    times: {type: [number, "null"], exclusiveMinimum: 0, maximum: 10000, default: 1}
                    meal: {type: [string, "null"]}
                    time: {type: [string, "null"], minLength: 1, description: "YYYY-MM-DD or an ISO 8601 time; null: unchanged or now"}
          responses:
            "201":
              description: The new entries
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      entries: {type: array, items: {$ref: "#/components/schemas/FoodEntry"}}
            "404": {$ref: "#/components/responses/NotFound"}
            "422": {$ref: "#/components/responses/Invalid"}
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
      /api/v1/nutrition-stats:
        get:
          summary: Totals and daily averages of every nutrient per day, week (Monday to Sunday) or month
          parameters:
            - {name: from, in: query, allowEmptyValue: true, schema: {type: string, format: date}, description: "default: 29 days before to"}
            - {name: to, in: query, allowEmptyValue: true, schema: {type: string, format: date}, description: "default: today"}
            - {name: period, in: query, allowEmptyValue: true, schema: {type: string, enum: [day, week, month], default: day}}
          responses:
            "200":
              description: The periods with at least one logged day, oldest first
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      period: {type: string}
                      from: {type: string, format: date}
                      to: {type: string, format: date}
                      periods:
                        type: array
                        items:
                          type: object
                          properties:
                            start: {type: string, format: date}
                            end: {type: string, format: date}
                            days_logged: {type: integer}
                            totals: {type: array, items: {$ref: "#/components/schemas/NutrientTotal"}}
                            daily_average: {type: array, items: {$ref: "#/components/schemas/NutrientTotal"}}
            "422": {$ref: "#/components/responses/Invalid"}
      /api/v1/food-journal:
        get:
          summary: Export the food journal
          description: |
            JSON (default): one document with the user's foods, every entry with its nutrient snapshot,
            presets and daily totals; it imports back with POST. CSV: one table (entries, days or foods),
            one column per nutrient named with its unit (energy_kcal, sodium_mg, vitamin_d_ug).
          parameters:
            - {name: format, in: query, allowEmptyValue: true, schema: {type: string, enum: [json, csv], default: json}}
            - {name: table, in: query, allowEmptyValue: true, schema: {type: string, enum: [entries, days, foods], default: entries}}
          responses:
            "200":
              description: The export
              content:
                application/json: {schema: {type: object}}
                text/csv: {schema: {type: string}}
            "422": {$ref: "#/components/responses/Invalid"}
        post:
          summary: Import a food journal JSON document (as exported); duplicates are skipped, the import can be undone
          parameters:
            - {name: dry_run, in: query, allowEmptyValue: true, schema: {type: boolean, default: false}}
            - {name: skip_invalid, in: query, allowEmptyValue: true, schema: {type: boolean, default: false}}
            - {name: file_name, in: query, allowEmptyValue: true, schema: {type: string}}
          requestBody:
            required: true
            content:
              application/json: {schema: {type: object}}
          responses:
            "200":
              description: Nothing was written (a dry run, or everything was already there)
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/ImportReport"}
            "201":
              description: Imported
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/ImportReport"}
            "422": {$ref: "#/components/responses/Invalid"}
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
      /api/v1/glucose:
        get:
          summary: Glucose readings of local days from…to, newest first
          parameters:
            - {name: from, in: query, allowEmptyValue: true, schema: {type: string, format: date}}
            - {name: to, in: query, allowEmptyValue: true, schema: {type: string, format: date}}
            - {name: limit, in: query, allowEmptyValue: true, schema: {type: integer, minimum: 1, maximum: 10000, default: 100}}
            - {name: offset, in: query, allowEmptyValue: true, schema: {type: integer, minimum: 0, maximum: 2147483647, default: 0}}
            - $ref: "#/components/parameters/glucoseUnit"
          responses:
            "200":
              description: The readings
              content:
                application/json:
                  schema: {type: object, properties: {glucose: {type: array, items: {$ref: "#/components/schemas/GlucoseReading"}}}}
            "422": {$ref: "#/components/responses/Invalid"}
        post:
          summary: Add a glucose reading (in the user's glucose unit unless `unit` says otherwise)
          requestBody:
            required: true
            content:
              application/json:
                schema:
                  type: object
                  required: [value]
                  properties:
                    id: {type: [string, "null"], format: uuid, description: "The client's own id"}
                    value: {type: number}
                    unit: {type: [string, "null"], enum: [mg/dL, mmol/L, null]}
                    time: {type: [string, "null"], minLength: 1, description: "YYYY-MM-DD (today: now; an earlier day: local noon) or ISO 8601; default (or null) now"}
                    timing: {anyOf: [{$ref: "#/components/schemas/MealTiming"}, {type: "null"}]}
                    note: {type: [string, "null"]}
                    confirm: {type: [boolean, "null"], description: "Save a value that looks like the other unit as it is. Without it, at most 30 mg/dL or at least 35 mmol/L is refused with 422 and code needs_confirmation, field value"}
          responses:
            "201":
              description: Stored
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/GlucoseReading"}
            "422": {$ref: "#/components/responses/Invalid"}
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
            "409": {$ref: "#/components/responses/Conflict"}
      /api/v1/glucose/{id}:
        delete:
          summary: Delete a glucose reading
          parameters:
            - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
          responses:
            "204": {description: Deleted}
            "404": {$ref: "#/components/responses/NotFound"}
      /api/v1/glucose/report:
        get:
          summary: Time in range, GMI, CV, each day, each meal event's response and the meals and foods ranked by response
          parameters:
            - {name: days, in: query, allowEmptyValue: true, schema: {type: integer, minimum: 1, maximum: 366, default: 30}}
            - {name: to, in: query, allowEmptyValue: true, schema: {type: string, format: date}, description: "The last day (default today)"}
            - $ref: "#/components/parameters/glucoseUnit"
          responses:
            "200":
              description: The report
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/GlucoseReport"}
            "422": {$ref: "#/components/responses/Invalid"}
      /api/v1/glucose/days/{date}:
        get:
          summary: One local day's readings, insulin and meal events with their responses
          parameters:
            - {name: date, in: path, required: true, schema: {type: string, format: date}}
            - $ref: "#/components/parameters/glucoseUnit"
          responses:
            "200":
              description: The day
              content:
                application/json:
                  schema:
                    type: object
                    properties:
                      date: {type: string, format: date}
                      unit: {type: string}
                      statistics: {$ref: "#/components/schemas/GlucoseStatistics"}
                      readings: {type: array, items: {$ref: "#/components/schemas/GlucoseReading"}}
                      insulin: {type: array, items: {$ref: "#/components/schemas/InsulinDose"}}
                      meal_events: {type: array, items: {$ref: "#/components/schemas/MealEvent"}}
            "422": {$ref: "#/components/responses/Invalid"}
      /api/v1/insulin:
        get:
          summary: Insulin doses of local days from…to (default the last 30), newest first
          parameters:
            - {name: from, in: query, allowEmptyValue: true, schema: {type: string, format: date}}
            - {name: to, in: query, allowEmptyValue: true, schema: {type: string, format: date}}
          responses:
            "200":
              description: The doses
              content:
                application/json:
                  schema: {type: object, properties: {insulin: {type: array, items: {$ref: "#/components/schemas/InsulinDose"}}}}
            "422": {$ref: "#/components/responses/Invalid"}
        post:
          summary: Add an insulin dose
          requestBody:
            required: true
            content:
              application/json:
                schema:
                  type: object
                  required: [units, kind]
                  properties:
                    id: {type: [string, "null"], format: uuid}
                    units: {type: number, minimum: 0.05, maximum: 100}
                    kind: {type: string, enum: [bolus, basal]}
                    insulin: {type: [string, "null"]}
                    time: {type: [string, "null"], minLength: 1, description: "YYYY-MM-DD or an ISO 8601 time; null: unchanged or now"}
                    note: {type: [string, "null"]}
          responses:
            "201":
              description: Stored
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/InsulinDose"}
            "422": {$ref: "#/components/responses/Invalid"}
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
            "409": {$ref: "#/components/responses/Conflict"}
      /api/v1/insulin/{id}:
        delete:
          summary: Delete an insulin dose
          parameters:
            - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
          responses:
            "204": {description: Deleted}
            "404": {$ref: "#/components/responses/NotFound"}
      /api/v1/meals:
        get:
          summary: The user's meal definitions, by name
          responses:
            "200":
              description: The meals
              content:
                application/json:
                  schema: {type: object, properties: {meals: {type: array, items: {$ref: "#/components/schemas/Meal"}}}}
        post:
          summary: Define a meal from foods (by weight) or a carbohydrate estimate
          requestBody:
            required: true
            content:
              application/json:
                schema:
                  type: object
                  required: [name]
                  properties:
                    id: {type: [string, "null"], format: uuid}
                    name: {type: string, minLength: 1, maxLength: 80}
                    kind: {type: [string, "null"], enum: [common, test, null], default: common}
                    carbohydrate_g: {type: [number, "null"]}
                    foods: {type: [array, "null"], items: {type: object, required: [food_id, grams], properties: {food_id: {type: string, format: uuid}, grams: {type: number, minimum: 0.1, maximum: 5000}}}}
                    note: {type: [string, "null"]}
          responses:
            "201":
              description: Stored
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Meal"}
            "409": {$ref: "#/components/responses/Conflict"}
            "422": {$ref: "#/components/responses/Invalid"}
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
      /api/v1/meals/{id}:
        get:
          summary: One meal definition
          parameters:
            - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
          responses:
            "200":
              description: The meal
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Meal"}
            "404": {$ref: "#/components/responses/NotFound"}
        delete:
          summary: Delete a meal definition (its events stay)
          parameters:
            - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
          responses:
            "204": {description: Deleted}
            "404": {$ref: "#/components/responses/NotFound"}
      /api/v1/meal-events:
        get:
          summary: Meal events of local days from…to (default the last 30), newest first
          parameters:
            - {name: from, in: query, allowEmptyValue: true, schema: {type: string, format: date}}
            - {name: to, in: query, allowEmptyValue: true, schema: {type: string, format: date}}
            - $ref: "#/components/parameters/glucoseUnit"
          responses:
            "200":
              description: The events
              content:
                application/json:
                  schema: {type: object, properties: {meal_events: {type: array, items: {$ref: "#/components/schemas/MealEvent"}}}}
            "422": {$ref: "#/components/responses/Invalid"}
        post:
          summary: Log that a meal was eaten
          requestBody:
            required: true
            content:
              application/json:
                schema:
                  type: object
                  required: [meal_id]
                  properties:
                    id: {type: [string, "null"], format: uuid}
                    meal_id: {type: string, format: uuid}
                    time: {type: [string, "null"], minLength: 1, description: "YYYY-MM-DD or an ISO 8601 time; null: unchanged or now"}
                    portion: {type: [number, "null"], minimum: 0.1, maximum: 10, default: 1}
                    carbohydrate_g: {type: [number, "null"]}
                    note: {type: [string, "null"]}
          responses:
            "201":
              description: Stored
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/MealEvent"}
            "422": {$ref: "#/components/responses/Invalid"}
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
            "409": {$ref: "#/components/responses/Conflict"}
      /api/v1/meal-events/{id}:
        delete:
          summary: Delete a meal event
          parameters:
            - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
          responses:
            "204": {description: Deleted}
            "404": {$ref: "#/components/responses/NotFound"}
      /api/v1/meal-events/{id}/report:
        put:
          summary: Report (flag) a meal event with a reason; reported events leave the averages
          parameters:
            - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
          requestBody:
            required: true
            content:
              application/json:
                schema: {type: object, required: [reason], properties: {reason: {type: string, minLength: 1, maxLength: 200, pattern: '\\S', description: "Not only spaces; trimmed, 1 to 200 characters remain"}}}
          responses:
            "204": {description: Reported}
            "404": {$ref: "#/components/responses/NotFound"}
            "422": {$ref: "#/components/responses/Invalid"}
            "400": {$ref: "#/components/responses/Malformed"}
            "413": {$ref: "#/components/responses/TooLarge"}
        delete:
          summary: Clear a meal event's report
          parameters:
            - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
          responses:
            "204": {description: Cleared}
            "404": {$ref: "#/components/responses/NotFound"}
      /api/v1/research-export:
        get:
          summary: Glucose, insulin, meals, meal events with responses, food and weight as tables with a data dictionary
          description: "De-identified: participants P001…, each participant's dates shifted by whole days of their own, export-local ids, no names or free text."
          parameters:
            - {name: format, in: query, allowEmptyValue: true, schema: {type: string, enum: [json, csv], default: json}}
            - {name: table, in: query, allowEmptyValue: true, description: "The table of a csv export", schema: {type: string, enum: [participants, glucose, insulin, meals, meal_events, food, weight, dictionary], default: glucose}}
            - {name: deidentify, in: query, allowEmptyValue: true, schema: {type: boolean, default: false}}
            - {name: scope, in: query, allowEmptyValue: true, description: "study: every participant of a hosted server (administrators only)", schema: {type: string, enum: [me, study], default: me}}
          responses:
            "200":
              description: "JSON: {dictionary: [{table, column, type, unit, description}], tables: {name: [rows]}}; CSV: one table"
              content:
                application/json: {schema: {type: object}}
                text/csv: {schema: {type: string}}
            "403": {description: "scope=study without being an administrator"}
            "422": {$ref: "#/components/responses/Invalid"}
      /api/v1/sync/push:
        post:
          summary: Apply a batch of a client's changes (the sync protocol, docs/sync.md)
          description: |
            Each change names a record type and the client's UUID for the record, the fields it sets, the fields
            it clears, or its deletion, and when the client made it. The server merges field by field: a field's
            later change wins; an absent or null field never overwrites; only `clear` empties a field; a
            deletion is final. Records may refer to records of the same push (a meal event to its meal): the
            server applies types in order. Every change is answered: `applied`, `merged` (some fields lost to
            later changes, or the record was deleted; `record` is what is stored) or `rejected` (the reason a
            422 would give; final: do not send it again unchanged). Pushing the same changes twice changes
            nothing. At most 10,000 changes per push.
          requestBody:
            required: true
            content:
              application/json:
                schema:
                  type: object
                  required: [changes]
                  properties:
                    changes: {type: array, maxItems: 10000, items: {$ref: "#/components/schemas/SyncChange"}}
          responses:
            "200":
              description: One result per change, in the order pushed
              content:
                application/json:
                  schema:
                    type: object
                    required: [results]
                    properties:
                      results: {type: array, items: {$ref: "#/components/schemas/SyncResult"}}
            "400": {$ref: "#/components/responses/Malformed"}
            "422": {$ref: "#/components/responses/Invalid"}
            "413": {$ref: "#/components/responses/TooLarge"}
      /api/v1/sync/changes:
        get:
          summary: Every change to the user's records after a cursor, tombstones included, oldest first
          parameters:
            - {name: after, in: query, allowEmptyValue: true, description: "The `next` of the previous page; absent: from the start", schema: {type: string, pattern: "^[0-9]{1,18}[.][0-9]{1,9}[.][0-9]{1,18}$", example: "1042.3.977"}}
            - {name: limit, in: query, allowEmptyValue: true, schema: {type: integer, minimum: 1, maximum: 10000, default: 1000}}
          responses:
            "200":
              description: A page of records; ask again with `next` while `more` is true
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/SyncPage"}
            "422": {$ref: "#/components/responses/Invalid"}
    components:
      securitySchemes:
        bearer:
          type: http
          scheme: bearer
          description: "An API token (cinn_…), from POST /api/v1/login or the Account page"
      parameters:
        unit:
          name: unit
          in: query
          allowEmptyValue: true
          schema: {$ref: "#/components/schemas/Unit"}
        glucoseUnit:
          name: unit
          in: query
          allowEmptyValue: true
          description: "mg/dL or mmol/L (default: the user's glucose unit)"
          schema: {type: string, enum: [mg/dL, mmol/L]}
      schemas:
        SyncType:
          type: string
          enum: [weigh_in, body_fat, goal, food_day, food_entry, exercise_entry, glucose_reading, insulin_dose, meal, meal_event, food, preset, workout, settings]
        SyncFields:
          type: object
          description: "The record's fields by name (docs/sync.md lists each type's); times are ISO 8601 with their UTC offset."
          additionalProperties: true
          example: {measured_at: "2026-11-21T07:30:00+01:00", weight_kg: 80.4, note: null}
        SyncChange:
          type: object
          required: [type, id, changed_at]
          properties:
            type: {type: string, description: "One of SyncType; a change of another type is answered rejected, the others still apply"}
            id: {type: string, format: uuid, description: "The record's id, made by the client"}
            changed_at: {type: string, format: date-time, description: "When the client made the change"}
            fields: {anyOf: [{$ref: "#/components/schemas/SyncFields"}, {type: "null"}]}
            clear: {type: [array, "null"], items: {type: string}, description: "Fields to empty"}
            deleted: {type: [boolean, "null"], default: false, description: "null: false"}
        SyncResult:
          type: object
          required: [type, id, status, deleted]
          properties:
            type: {type: string}
            id: {type: string, format: uuid}
            status: {type: string, enum: [applied, merged, rejected]}
            reason: {type: string, description: "Why it was rejected"}
            field: {type: string, description: "The field the rejection concerns"}
            record: {$ref: "#/components/schemas/SyncFields"}
            deleted: {type: boolean}
        SyncRecord:
          type: object
          required: [type, id, deleted]
          properties:
            type: {$ref: "#/components/schemas/SyncType"}
            id: {type: string, format: uuid}
            deleted: {type: boolean}
            fields: {$ref: "#/components/schemas/SyncFields"}
        SyncPage:
          type: object
          required: [changes, next, more]
          properties:
            changes: {type: array, items: {$ref: "#/components/schemas/SyncRecord"}}
            next: {type: string, description: "The cursor to ask with next"}
            more: {type: boolean}
        NewToken:
          type: object
          required: [id, name, token, created_at]
          properties:
            id: {type: string, format: uuid}
            name: {type: string}
            token: {type: string, description: "The secret, to send as Authorization: Bearer <token>"}
            created_at: {type: string, format: date-time}
        Token:
          type: object
          required: [id, name, created_at]
          properties:
            id: {type: string, format: uuid}
            name: {type: string}
            created_at: {type: string, format: date-time}
            last_used_at: {type: string, format: date-time}
            revoked_at: {type: string, format: date-time}
        MealTiming: {type: string, enum: [fasting, before_meal, after_meal, bedtime]}
        GlucoseReading:
          type: object
          required: [id, time, date, value, unit, mg_dl, timing, note, source]
          properties:
            id: {type: string, format: uuid}
            time: {type: string, description: "Local ISO 8601 with its offset"}
            date: {type: string, format: date}
            value: {type: number, description: "In `unit`: whole mg/dL or tenths of mmol/L"}
            unit: {type: string, enum: [mg/dL, mmol/L]}
            mg_dl: {type: number}
            timing: {oneOf: [{$ref: "#/components/schemas/MealTiming"}, {type: "null"}]}
            note: {type: [string, "null"]}
            source: {type: string}
        InsulinDose:
          type: object
          required: [id, time, date, units, kind, insulin, note, source]
          properties:
            id: {type: string, format: uuid}
            time: {type: string}
            date: {type: string, format: date}
            units: {type: number}
            kind: {type: string, enum: [bolus, basal]}
            insulin: {type: [string, "null"]}
            note: {type: [string, "null"]}
            source: {type: string}
        Meal:
          type: object
          required: [id, name, kind, carbohydrate_g, foods, note]
          properties:
            id: {type: string, format: uuid}
            name: {type: string}
            kind: {type: string, enum: [common, test]}
            carbohydrate_g: {type: [number, "null"]}
            foods: {type: array, items: {type: object, properties: {food_id: {type: string, format: uuid}, name: {type: string}, grams: {type: number}}}}
            note: {type: [string, "null"]}
        MealResponse:
          type: object
          description: "Baseline (last reading in the 30 minutes before), peak within 3 hours, 2-hour incremental area above the baseline (FAO/WHO 1998)"
          properties:
            baseline: {type: number}
            peak: {type: number}
            rise: {type: number}
            minutes_to_peak: {type: number}
            incremental_area_mg_dl_min: {type: number}
            complete: {type: boolean, description: "Readings cover the two hours"}
            bolus_units: {type: number, description: "Bolus from 30 minutes before to 60 after"}
        MealEvent:
          type: object
          required: [id, meal_id, meal, time, date, portion, carbohydrate_g, note, reported, report_reason, response]
          properties:
            id: {type: string, format: uuid}
            meal_id: {type: string, format: uuid}
            meal: {type: [string, "null"]}
            time: {type: string}
            date: {type: string, format: date}
            portion: {type: number}
            carbohydrate_g: {type: [number, "null"]}
            note: {type: [string, "null"]}
            reported: {type: boolean}
            report_reason: {type: [string, "null"]}
            response: {oneOf: [{$ref: "#/components/schemas/MealResponse"}, {type: "null"}]}
        GlucoseStatistics:
          type: object
          description: "Shares of readings in the consensus ranges (Battelino 2019), GMI (Bergenstal 2018), CV"
          properties:
            readings: {type: integer}
            mean: {type: [number, "null"]}
            standard_deviation: {type: [number, "null"]}
            cv_percent: {type: [number, "null"]}
            gmi_percent: {type: [number, "null"]}
            gmi_mmol_per_mol: {type: [number, "null"]}
            percent_below_54: {type: number}
            percent_54_69: {type: number}
            percent_70_180: {type: number}
            percent_181_250: {type: number}
            percent_above_250: {type: number}
        Ranking:
          type: object
          properties:
            id: {type: string, format: uuid}
            name: {type: string}
            events: {type: integer}
            counted: {type: integer, description: "Complete, unreported responses"}
            mean_incremental_area_mg_dl_min: {type: [number, "null"]}
            mean_rise: {type: [number, "null"]}
            mean_minutes_to_peak: {type: [number, "null"]}
            mean_bolus_units: {type: [number, "null"]}
        GlucoseReport:
          type: object
          properties:
            from: {type: string, format: date}
            to: {type: string, format: date}
            unit: {type: string}
            statistics: {$ref: "#/components/schemas/GlucoseStatistics"}
            days: {type: array, items: {type: object, properties: {date: {type: string, format: date}, statistics: {$ref: "#/components/schemas/GlucoseStatistics"}}}}
            meal_events: {type: array, items: {$ref: "#/components/schemas/MealEvent"}}
            meals: {type: array, items: {$ref: "#/components/schemas/Ranking"}, description: "Highest mean area first: which meals spike you"}
            foods: {type: array, items: {$ref: "#/components/schemas/Ranking"}}
            bolus_units: {type: number}
            basal_units: {type: number}
        Unit: {type: string, enum: [kg, lb, st]}
        OneRepMaxFormula: {type: string, enum: [brzycki, epley, lombardi, mayhew, oconner, wathan, lander]}
        SetKind: {type: string, enum: [normal, warm_up, drop, failure]}
        LiftedSet:
          type: object
          required: [date, weight, weight_kg, reps, kind]
          properties:
            date: {type: string, format: date}
            weight: {type: number, description: "In the response's unit, to hundredths"}
            weight_kg: {type: number}
            reps: {type: integer}
            kind: {$ref: "#/components/schemas/SetKind"}
        Estimate:
          type: object
          required: [shown, value, value_kg, low_confidence, set, workout_id]
          properties:
            shown: {type: string, description: "A whole number in the unit, truncated, such as 116 kg"}
            value: {type: number}
            value_kg: {type: number}
            low_confidence: {type: boolean, description: "From a set above 10 reps"}
            set: {$ref: "#/components/schemas/LiftedSet"}
            workout_id: {type: [string, "null"], format: uuid}
        ExerciseSummary:
          type: object
          required: [id, name, aliases, last_date, current, best]
          properties:
            id: {type: string, format: uuid}
            name: {type: string}
            aliases: {type: array, items: {type: string}}
            last_date: {type: [string, "null"], format: date}
            current: {oneOf: [{$ref: "#/components/schemas/Estimate"}, {type: "null"}], description: "The best estimate of the last 30 days"}
            best: {oneOf: [{$ref: "#/components/schemas/Estimate"}, {type: "null"}], description: "The best estimate ever, given only for an exercise not done in the last 30 days"}
        ExercisePage:
          type: object
          required: [id, name, aliases, unit, formula, include_high_reps, current, best, heaviest, best_set_volume, rep_maxes, weekly_volume, history, total_sets, first_date, last_date]
          properties:
            id: {type: string, format: uuid}
            name: {type: string}
            aliases: {type: array, items: {type: string}}
            unit: {$ref: "#/components/schemas/Unit"}
            formula: {$ref: "#/components/schemas/OneRepMaxFormula"}
            include_high_reps: {type: boolean}
            current: {oneOf: [{$ref: "#/components/schemas/Estimate"}, {type: "null"}]}
            best: {oneOf: [{$ref: "#/components/schemas/Estimate"}, {type: "null"}]}
            heaviest: {oneOf: [{$ref: "#/components/schemas/LiftedSet"}, {type: "null"}]}
            best_set_volume: {oneOf: [{$ref: "#/components/schemas/LiftedSet"}, {type: "null"}]}
            rep_maxes:
              type: array
              description: For 1 to 10 reps, the heaviest weight lifted for at least that many
              items: {type: object, required: [reps, set], properties: {reps: {type: integer}, set: {$ref: "#/components/schemas/LiftedSet"}}}
            weekly_volume:
              type: array
              items:
                type: object
                required: [week_start, volume, volume_kg, sets]
                properties:
                  week_start: {type: string, format: date}
                  volume: {type: number}
                  volume_kg: {type: number}
                  sets: {type: integer}
            history:
              type: array
              description: The best estimate of each day, oldest first
              items:
                type: object
                required: [date, estimate, set]
                properties:
                  date: {type: string, format: date}
                  estimate: {type: number}
                  set: {$ref: "#/components/schemas/LiftedSet"}
            total_sets: {type: integer}
            first_date: {type: [string, "null"], format: date}
            last_date: {type: [string, "null"], format: date}
        WorkoutSummary:
          type: object
          required: [id, started_at, date, name, source, duration_s, sets, volume, volume_kg, exercises]
          properties:
            id: {type: string, format: uuid}
            started_at: {type: string}
            date: {type: string, format: date}
            name: {type: string}
            source: {type: string}
            duration_s: {type: [number, "null"]}
            sets: {type: integer}
            volume: {type: number, description: "Weight × reps, warm-ups left out"}
            volume_kg: {type: number}
            exercises: {type: array, items: {type: string}}
        Workout:
          type: object
          required: [id, started_at, date, name, source, duration_s, note, unit, sets]
          properties:
            id: {type: string, format: uuid}
            started_at: {type: string}
            date: {type: string, format: date}
            name: {type: string}
            source: {type: string}
            duration_s: {type: [number, "null"]}
            note: {type: [string, "null"]}
            unit: {$ref: "#/components/schemas/Unit"}
            sets:
              type: array
              items:
                type: object
                required: [exercise, reps, weight, weight_kg, duration_s, distance_m, kind, rpe, rir, note, estimate]
                properties:
                  exercise: {type: string}
                  reps: {type: [integer, "null"]}
                  weight: {type: [number, "null"]}
                  weight_kg: {type: [number, "null"]}
                  duration_s: {type: [number, "null"]}
                  distance_m: {type: [number, "null"]}
                  kind: {$ref: "#/components/schemas/SetKind"}
                  rpe: {type: [number, "null"]}
                  rir: {type: [integer, "null"]}
                  note: {type: [string, "null"]}
                  estimate: {type: [string, "null"], description: "The set's one-rep max as shown"}
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
            id: {type: [string, "null"], format: uuid, description: "A client-generated id (UUIDv7 preferred); made by the server when absent"}
            weight: {type: number, exclusiveMinimum: 0, description: "At most 700 kg"}
            unit: {anyOf: [{$ref: "#/components/schemas/Unit"}, {type: "null"}]}
            date: {type: [string, "null"], minLength: 1, description: "YYYY-MM-DD (today: now; an earlier day: local noon) or an ISO 8601 time"}
            measured_at: {type: [string, "null"], minLength: 1, description: "ISO 8601 time, with its offset if known"}
            note: {type: [string, "null"], maxLength: 500}
            confirm: {type: [boolean, "null"], description: "Save a weight that looks like a typo as it is. Without it, a weight more than 10 % from the trend of the last 60 days (or without one, outside 30-250 kg) is refused with 422 and code needs_confirmation, field weight"}
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
            unit: {anyOf: [{$ref: "#/components/schemas/Unit"}, {type: "null"}]}
            trend_method: {type: [string, "null"], enum: [exact, pencil, null]}
            time_zone: {type: [string, "null"], minLength: 1, description: "IANA name, e.g. Europe/Berlin; null: unchanged"}
            energy_target_kcal: {type: [number, "null"], minimum: 500, maximum: 10000, description: "the day's calorie target; null clears it"}
            energy_unit: {type: [string, "null"], enum: [kcal, kJ, null]}
            glucose_unit: {type: [string, "null"], enum: [mg/dL, mmol/L, null], description: "How glucose is shown and entered (stored in mg/dL)"}
        Profile:
          type: object
          properties:
            sex: {type: [string, "null"], enum: [female, male, null]}
            birth_date: {type: [string, "null"], format: date}
            height_cm: {type: [number, "null"]}
            height: {type: [string, "null"], description: "In the length unit, e.g. 5 ft 11 in"}
            activity: {type: [string, "null"], enum: [sedentary, light, moderate, active, very_active, null]}
            activity_factor: {type: [number, "null"]}
            complete: {type: boolean, description: "All four of sex, birth date, height and activity are set"}
            onboarded: {type: boolean}
            mass_unit: {$ref: "#/components/schemas/Unit"}
            length_unit: {type: string, enum: [cm, ft_in]}
            energy_unit: {type: string, enum: [kcal, kJ]}
            time_zone: {type: string}
            goal_weight: {type: [number, "null"], description: "In mass_unit"}
            goal_rate_per_week: {type: [number, "null"]}
            target_basis: {type: string, enum: [formula, adaptive]}
            energy_floor_kcal: {type: [number, "null"]}
            energy_target_kcal: {type: [number, "null"]}
        ProfileChange:
          type: object
          properties:
            sex: {type: [string, "null"], enum: [female, male, null]}
            birth_date: {type: [string, "null"], format: date, description: "Age 13 to 120"}
            height: {type: [string, "null"], description: "180, 180 cm, 1.80 m, 5 ft 11 in, 5 ft 11 (a bare number is in the length unit); 100–250 cm"}
            height_cm: {type: [number, "null"], minimum: 100, maximum: 250}
            activity: {type: [string, "null"], enum: [sedentary, light, moderate, active, very_active, null]}
            length_unit: {type: [string, "null"], enum: [cm, ft_in, null]}
            mass_unit: {anyOf: [{$ref: "#/components/schemas/Unit"}, {type: "null"}]}
            energy_unit: {type: [string, "null"], enum: [kcal, kJ, null]}
            time_zone: {type: [string, "null"], minLength: 1, description: "IANA name, e.g. Europe/Berlin"}
            goal_weight: {type: [number, "null"], description: "In mass_unit; sets a new goal when it differs from the current one"}
            goal_rate_per_week: {type: [number, "null"], exclusiveMinimum: 0, description: "Towards the goal, in mass_unit; at most 2 kg"}
            target_basis: {type: [string, "null"], enum: [formula, adaptive, null]}
            energy_floor_kcal: {type: [number, "null"], minimum: 800, maximum: 3000, description: "null: 1200 (women) / 1500 (men)"}
            energy_target_kcal: {type: [number, "null"], minimum: 500, maximum: 10000, description: "A manual target; null clears it"}
            onboarded: {type: [boolean, "null"]}
        ETA:
          type: object
          properties:
            date: {type: [string, "null"], format: date}
            earliest: {type: [string, "null"], format: date}
            latest: {type: [string, "null"], format: date, description: "null: not within three years at the slow end"}
            rate_towards_goal_per_week: {type: number}
            rate_sd_per_week: {type: number}
        CheckIn:
          type: object
          properties:
            start: {type: string, format: date}
            end: {type: string, format: date}
            days_logged: {type: integer}
            complete_days: {type: integer}
            mean_intake_kcal: {type: [number, "null"]}
            trend_change: {type: [number, "null"]}
            expenditure_kcal: {type: [number, "null"]}
            target_kcal: {type: [number, "null"]}
            days_on_target: {type: [integer, "null"], description: "Complete days within ±10 % of the target"}
        Today:
          type: object
          properties:
            date: {type: string, format: date}
            answer: {type: string, enum: [yes, careful, no, unknown]}
            message: {type: string}
            remaining_kcal: {type: [integer, "null"]}
            eaten_kcal: {type: number}
            target_kcal: {type: [number, "null"]}
            maintenance_kcal: {type: [number, "null"]}
            day_status: {type: [string, "null"]}
            trend_verdict: {type: string, enum: [yes, no, unknown]}
            trend_reason: {type: string}
        Energy:
          type: object
          properties:
            date: {type: string, format: date}
            mass_unit: {$ref: "#/components/schemas/Unit"}
            trend: {type: [number, "null"]}
            formula:
              type: [object, "null"]
              properties:
                equation: {type: string, enum: [mifflin_st_jeor, katch_mcardle]}
                resting_kcal: {type: number}
                activity_factor: {type: number}
                expenditure_kcal: {type: number}
                body_fat_percent: {type: [number, "null"]}
            adaptive:
              type: [object, "null"]
              properties:
                as_of: {type: string, format: date}
                held: {type: boolean}
                window_days: {type: integer}
                complete_days: {type: integer}
                mean_intake_kcal: {type: number}
                trend_change: {type: number}
                expenditure_kcal: {type: number}
                sd_kcal: {type: number}
                range_low_kcal: {type: number}
                range_high_kcal: {type: number}
            adaptive_status: {type: [string, "null"]}
            blended_kcal: {type: [number, "null"]}
            blended_sd_kcal: {type: [number, "null"]}
            adaptive_weight: {type: number}
            maintenance_kcal: {type: [number, "null"]}
            target:
              type: [object, "null"]
              properties:
                kcal: {type: number}
                source: {type: string, enum: [manual, computed]}
                basis: {type: string, enum: [formula, adaptive]}
                maintenance_kcal: {type: [number, "null"]}
                adjustment_kcal: {type: number}
                floor_kcal: {type: number}
                floored: {type: boolean}
            today: {$ref: "#/components/schemas/Today"}
            time_to_goal_planned: {oneOf: [{$ref: "#/components/schemas/ETA"}, {type: "null"}]}
            time_to_goal_trend: {oneOf: [{$ref: "#/components/schemas/ETA"}, {type: "null"}]}
            goal_reached: {type: boolean}
            this_week: {$ref: "#/components/schemas/CheckIn"}
            last_week: {$ref: "#/components/schemas/CheckIn"}
            days:
              type: array
              items:
                type: object
                properties:
                  date: {type: string, format: date}
                  intake_kcal: {type: [number, "null"]}
                  status: {type: [string, "null"]}
                  formula_kcal: {type: [number, "null"]}
                  adaptive_kcal: {type: [number, "null"]}
                  trend: {type: [number, "null"]}
        Nutrients:
          type: object
          description: Amounts by nutrient key (see /api/v1/nutrients), in each nutrient's unit; absent means unknown, not zero
          additionalProperties: {type: number, minimum: 0}
        NutrientTotal:
          type: object
          properties:
            key: {type: string}
            name: {type: string}
            amount: {type: number}
            unit: {type: string}
            percent_daily_value: {type: [number, "null"]}
        Serving:
          type: object
          required: [label]
          properties:
            label: {type: string, examples: ["1 medium"]}
            grams: {type: [number, "null"], description: "grams (ml for a food measured per 100 ml) in one serving"}
        Food:
          type: object
          properties:
            id: {type: string, format: uuid}
            name: {type: string}
            brand: {type: [string, "null"]}
            barcode: {type: [string, "null"]}
            source: {type: string, enum: [mine, usda, off]}
            basis: {type: string, enum: [g, ml]}
            category: {type: [string, "null"]}
            mine: {type: boolean}
            nutrients_per_100: {$ref: "#/components/schemas/Nutrients"}
            servings: {type: array, items: {$ref: "#/components/schemas/Serving"}}
        NewFood:
          type: object
          required: [name, serving]
          properties:
            name: {type: string, minLength: 1}
            brand: {type: [string, "null"]}
            barcode: {type: [string, "null"]}
            basis: {type: [string, "null"], enum: [g, ml, null], default: g}
            serving: {$ref: "#/components/schemas/Serving"}
            nutrients: {anyOf: [{$ref: "#/components/schemas/Nutrients", description: "per serving"}, {type: "null"}]}
            percent_daily_value:
              type: object
              description: per serving, in % of the FDA Daily Value; converted to amounts
              additionalProperties: {type: number, minimum: 0}
            energy_unit: {type: [string, "null"], enum: [kcal, kJ, null], default: kcal}
            other_servings:
              type: array
              description: more portions besides the labelled one, e.g. {"label":"1 tbsp","grams":15}
              items: {$ref: "#/components/schemas/Serving"}
        FoodSummary:
          type: object
          properties:
            id: {type: string, format: uuid}
            name: {type: string}
            brand: {type: [string, "null"]}
            source: {type: string, enum: [mine, usda, off]}
            basis: {type: string, enum: [g, ml], description: "energy_kcal_per_100 is per 100 g or per 100 ml"}
            mine: {type: boolean}
            energy_kcal_per_100: {type: [number, "null"]}
            default_serving: {oneOf: [{$ref: "#/components/schemas/Serving"}, {type: "null"}]}
            other_versions: {type: integer, description: "foods with the same name and brand folded into this result"}
            last_used: {type: [string, "null"], format: date-time}
        FoodEntry:
          type: object
          properties:
            id: {type: string, format: uuid}
            food_id: {type: [string, "null"], format: uuid}
            name: {type: string}
            brand: {type: [string, "null"]}
            meal: {type: string}
            eaten_at: {type: string, description: "local time with its offset"}
            date: {type: string, format: date}
            servings: {type: number}
            serving: {$ref: "#/components/schemas/Serving"}
            nutrients: {$ref: "#/components/schemas/Nutrients", description: "of the whole entry, as logged"}
            note: {type: [string, "null"]}
            source: {type: string}
        Day:
          type: object
          properties:
            date: {type: string, format: date}
            energy_kcal: {type: number}
            energy_target_kcal: {type: [number, "null"]}
            energy_remaining_kcal: {type: [number, "null"], description: "target minus eaten; negative when over"}
            maintenance_kcal: {type: [number, "null"], description: "calories to maintain (from the profile), as of this day"}
            exercise_kcal: {type: [number, "null"], description: "energy of the exercise entries this day; never added to the target"}
            meals:
              type: array
              items:
                type: object
                properties:
                  meal: {type: string}
                  title: {type: string}
                  energy_kcal: {type: number}
                  entries: {type: array, items: {$ref: "#/components/schemas/FoodEntry"}}
            totals: {type: array, items: {$ref: "#/components/schemas/NutrientTotal"}}
        Preset:
          type: object
          properties:
            id: {type: string, format: uuid}
            name: {type: string}
            meal: {type: [string, "null"]}
            energy_kcal: {type: number}
            items:
              type: array
              items:
                type: object
                properties:
                  food_id: {type: [string, "null"], format: uuid}
                  name: {type: string}
                  brand: {type: [string, "null"]}
                  servings: {type: number}
                  serving: {$ref: "#/components/schemas/Serving"}
                  nutrients: {$ref: "#/components/schemas/Nutrients"}
        ImportReport:
          type: object
          properties:
            format: {type: string}
            rows_read: {type: integer}
            imported: {type: integer}
            duplicates: {type: integer}
            skipped: {type: integer, description: "rows with nothing to import, such as food database rows without energy"}
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
            health_days:
              type: array
              description: "Apple Health: the other quantity and category types, summed up per local day"
              items:
                type: object
                properties:
                  type: {type: string, description: "HealthKit identifier, such as HKQuantityTypeIdentifierStepCount"}
                  category: {type: string, description: "a category sample's value; empty for quantities"}
                  name: {type: string}
                  unit: {type: string, description: "kcal, m, kg and cm whatever the records' units; min for categories"}
                  days: {type: integer}
                  samples: {type: integer}
                  written: {type: integer, description: "days whose summary is new or replaces an older export's"}
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
          description: "Invalid input; the field is named. Code invalid_input, or needs_confirmation: a reading a person entered that looks like a typo, saved when sent again with confirm: true"
          content: {application/json: {schema: {type: object, properties: {error: {$ref: "#/components/schemas/ErrorBody"}}}}}
        NotFound:
          description: No such record for this user
          content: {application/json: {schema: {type: object, properties: {error: {$ref: "#/components/schemas/ErrorBody"}}}}}
        Conflict:
          description: Conflicts with what is stored
          content: {application/json: {schema: {type: object, properties: {error: {$ref: "#/components/schemas/ErrorBody"}}}}}
        Unauthenticated:
          description: No valid bearer token, or a wrong name or password
          content: {application/json: {schema: {type: object, properties: {error: {$ref: "#/components/schemas/ErrorBody"}}}}}
        TooMany:
          description: Too many failed log-ins; try again later
          content: {application/json: {schema: {type: object, properties: {error: {$ref: "#/components/schemas/ErrorBody"}}}}}
        TooLarge:
          description: The body is larger than the route takes (1 MiB of JSON; a sync push 32 MiB or a million values)
          content: {application/json: {schema: {type: object, properties: {error: {$ref: "#/components/schemas/ErrorBody"}}}}}
        Unavailable:
          description: Too busy checking other log-ins; try again after Retry-After seconds
          headers:
            Retry-After: {schema: {type: integer}}
          content: {application/json: {schema: {type: object, properties: {error: {$ref: "#/components/schemas/ErrorBody"}}}}}
        NoAccounts:
          description: "Single-user mode (`cinn serve` without --accounts): there are no accounts, logins or tokens"
          content: {application/json: {schema: {type: object, properties: {error: {$ref: "#/components/schemas/ErrorBody"}}}}}

    """
}
