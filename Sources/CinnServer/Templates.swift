/// The web app's mustache templates. Pages render their body, then `layout` wraps it.
enum Templates {
    static let all: [String: String] = [
        "layout": layout, "dashboard": dashboard, "weigh-ins": weighIns, "edit": edit, "confirm-delete": confirmDelete,
        "import": importPage, "import-report": importReport, "import-unit": importUnit, "undo-import": undoImport, "settings": settings, "more": more, "error": error,
    ].merging(FoodTemplates.all) { existing, _ in existing }.merging(EnergyTemplates.all) { existing, _ in existing }
        .merging(WorkoutTemplates.all) { existing, _ in existing }.merging(AccountTemplates.all) { existing, _ in existing }
        .merging(GlucoseTemplates.all) { existing, _ in existing }.merging(HealthTemplates.all) { existing, _ in existing }

    static let layout = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <title>{{title}} · Cinn</title>
    <link rel="stylesheet" href="/static/cinn.css">
    </head>
    <body>
    <a class="skip" href="#main">Skip to content</a>
    {{#showTabs}}
    <nav class="tabs" aria-label="Main">
      <a href="/" class="{{#tabWeight}}on{{/tabWeight}}"><span class="icon" aria-hidden="true">⚖</span><span class="label">Weight</span></a>
      <a href="/food" class="{{#tabFood}}on{{/tabFood}}"><span class="icon" aria-hidden="true">☕&#xFE0E;</span><span class="label">Food</span></a>
      <a href="/lifts" class="{{#tabLifts}}on{{/tabLifts}}"><span class="icon" aria-hidden="true">▲&#xFE0E;</span><span class="label">Lifts</span></a>
      <a href="/glucose" class="{{#tabGlucose}}on{{/tabGlucose}}"><span class="icon" aria-hidden="true">◔&#xFE0E;</span><span class="label">Glucose</span></a>
      <a href="/more" class="{{#tabMore}}on{{/tabMore}}"><span class="icon" aria-hidden="true">⋯</span><span class="label">More</span></a>
    </nav>
    {{/showTabs}}
    <main id="main">
    {{#notice}}<p class="notice card" role="status" id="notice">{{.}}</p>{{/notice}}
    {{{body}}}
    </main>
    </body>
    </html>
    """

    /// The web app's one style sheet (`/static/cinn.css`): the layout's and every feature's styles.
    static let styleSheet = """
    :root { --bg:#f6f5f2; --card:#fff; --text:#1d1d1b; --muted:#5f5f5a; --line:#dedbd4; --accent:#1f5f99;
      --yes:#1b7a3a; --yes-bg:#e3f4e8; --no:#b3261e; --no-bg:#fbe7e5; --unknown:#6b5b00; --unknown-bg:#f7f0d0; }
    @media (prefers-color-scheme: dark) { :root { --bg:#141413; --card:#1f1f1d; --text:#f0efe9; --muted:#b3b1a8;
      --line:#3a3935; --accent:#8cc2f2; --yes:#7fdc9a; --yes-bg:#173321; --no:#ff9b92; --no-bg:#3b1917;
      --unknown:#f1d970; --unknown-bg:#33300f; } }
    * { box-sizing: border-box; }
    body { margin:0; font:1rem/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background:var(--bg); color:var(--text); }
    main { max-width:760px; margin:0 auto; padding:16px 16px 96px; }
    h1 { font-size:1.4rem; margin:8px 0 12px; } h2 { font-size:1.1rem; margin:24px 0 8px; }
    a { color:var(--accent); }
    .card { background:var(--card); border:1px solid var(--line); border-radius:14px; padding:16px; margin:12px 0; }
    .verdict { border-radius:16px; padding:18px 20px; margin:8px 0 12px; border:2px solid currentColor; }
    .verdict .answer { font-size:2.6rem; font-weight:800; line-height:1.1; display:flex; align-items:center; gap:12px; }
    .verdict .question { margin:0; font-size:.95rem; font-weight:600; text-transform:uppercase; letter-spacing:.04em; }
    .verdict p { margin:6px 0 0; font-size:1.05rem; color:var(--text); }
    .verdict.yes { color:var(--yes); background:var(--yes-bg); } .verdict.no { color:var(--no); background:var(--no-bg); }
    .verdict.unknown { color:var(--unknown); background:var(--unknown-bg); }
    .numbers { display:grid; grid-template-columns:repeat(3, minmax(0, 1fr)); gap:8px; margin:12px 0; }
    .numbers div { background:var(--card); border:1px solid var(--line); border-radius:12px; padding:10px; }
    .numbers b { display:block; font-size:1.05rem; } .numbers span { font-size:.8rem; color:var(--muted); }
    .ranges { display:flex; gap:4px; flex-wrap:wrap; margin:8px 0; }
    .ranges a { flex:1; text-align:center; padding:10px 4px; min-height:44px; border-radius:10px; text-decoration:none;
      border:1px solid var(--line); background:var(--card); color:var(--text); font-size:.9rem; }
    .ranges a.on { background:var(--accent); color:var(--bg); border-color:var(--accent); font-weight:700; }
    .chart svg { width:100%; height:auto; display:block; }
    main svg[viewBox][role=img]:not(.tir) { max-width:35rem; margin-inline:auto; }
    form.inline { display:inline; }
    label { display:block; font-size:.9rem; color:var(--muted); margin:8px 0 4px; }
    input, select, textarea { font:inherit; color:var(--text); background:var(--card); border:1px solid var(--line);
      border-radius:10px; padding:10px 12px; min-height:44px; width:100%; }
    input[type=checkbox] { width:auto; min-height:auto; }
    .row { display:flex; flex-wrap:wrap; gap:8px; align-items:flex-end; } .row > * { flex:1 1 8rem; min-width:0; }
    .row > .shrink { flex:0 0 auto; } .row > .w6 { flex:0 0 6.5rem; } .row > .w7 { flex:0 0 7rem; } .row > .w7-5 { flex:0 0 7.5rem; }
    h2.first { margin-top:0; }
    button:disabled { opacity:.55; cursor:progress; }
    .import-progress progress { width:100%; height:14px; accent-color:var(--accent); } .import-progress p { margin:4px 0 0; }
    button, .button { font:inherit; font-weight:700; border:0; border-radius:10px; padding:10px 16px; min-height:44px;
      background:var(--accent); color:var(--bg); cursor:pointer; text-decoration:none; display:inline-block; text-align:center; }
    button.secondary, .button.secondary { background:transparent; color:var(--accent); border:1px solid var(--accent); }
    button.danger { background:var(--no); color:var(--bg); }
    table { width:100%; border-collapse:collapse; } td, th { padding:10px 6px; border-bottom:1px solid var(--line); text-align:left; }
    td.num, th.num { text-align:right; font-variant-numeric:tabular-nums; }
    td:has(> a.rowlink) { padding:0; } a.rowlink { display:block; min-height:44px; padding:10px 6px; color:inherit; text-decoration:none; }
    .notice { border-color:var(--yes); color:var(--yes); background:var(--yes-bg); font-weight:600; }
    .confirm { border:2px solid var(--unknown); background:var(--unknown-bg); } .confirm b { color:var(--text); }
    .actions { display:flex; flex-wrap:wrap; gap:8px; align-items:center; margin:0; }
    .muted { color:var(--muted); font-size:.9rem; } .file-name { overflow-wrap:anywhere; } .error { color:var(--no); font-weight:600; }
    .empty { text-align:center; padding:28px 16px; }
    nav.tabs { position:fixed; bottom:0; left:0; right:0; display:flex; background:var(--card); border-top:1px solid var(--line); z-index:2; }
    nav.tabs a { flex:1 1 0; min-width:0; text-align:center; padding:8px 2px 12px; min-height:56px; text-decoration:none; color:var(--muted);
      font-size:.8rem; white-space:nowrap; }
    nav.tabs a .icon { display:block; font-size:1.3rem; line-height:1.2; }
    nav.tabs a.on { color:var(--accent); font-weight:700; }
    .skip { position:absolute; left:-10000px; top:0; }
    .skip:focus { left:8px; top:8px; z-index:5; background:var(--card); color:var(--accent); padding:12px 16px; border-radius:10px; }
    summary { min-height:44px; padding:10px 0; line-height:1.5rem; cursor:pointer; }
    .go a, .pager a:not(.button) { display:inline-flex; align-items:center; min-height:44px; }
    ul.menu { list-style:none; margin:12px 0; padding:4px 16px; } ul.menu li + li { border-top:1px solid var(--line); }
    ul.menu a { display:flex; flex-direction:column; justify-content:center; min-height:56px; padding:8px 0; text-decoration:none;
      color:var(--text); font-weight:600; }
    ul.menu small { color:var(--muted); font-weight:400; font-size:.9rem; }
    @media (min-width: 900px) {
      nav.tabs { top:0; bottom:0; right:auto; width:180px; flex-direction:column; border-top:0; border-right:1px solid var(--line); padding-top:16px; }
      nav.tabs a { flex:0; text-align:left; padding:12px 20px; font-size:1rem; } nav.tabs a .icon { display:inline; margin-right:8px; }
      main { margin-left:max(180px, calc(50% - 380px + 90px)); padding:24px 32px; }
    }
    @media (min-width: 1200px) {
      main { max-width:1120px; margin-left:max(180px, calc(50% - 560px + 90px)); }
      .columns { display:grid; grid-template-columns:minmax(0, 3fr) minmax(0, 2fr); gap:0 24px; align-items:start; }
      .meals { display:grid; grid-template-columns:repeat(2, minmax(0, 1fr)); gap:0 16px; align-items:start; }
    }
    \(FoodTemplates.style)
    \(EnergyTemplates.style)
    \(EnergyTemplates.heightStyle)
    \(WorkoutTemplates.style)
    \(AccountTemplates.style)
    \(GlucoseTemplates.style)
    \(HealthTemplates.style)
    """

    static let dashboard = """
    <div class="columns"><div>
    <section id="today" class="verdict {{todayState}}" data-answer="{{todayState}}" aria-live="polite">
      <h1 class="question">Can I nom nom today?</h1>
      <div class="answer sentence">{{todayMessage}}</div>
      <p id="verdict" class="trend-line" data-answer="{{answer}}"><span aria-hidden="true">{{icon}}</span> Trend: {{reason}}</p>
      {{#todayLink}}<p class="trend-line go"><a href="{{.}}">{{todayLinkText}}</a></p>{{/todayLink}}
    </section>
    {{#hasData}}
    <div class="numbers">
      <div><b>{{rate}}</b><span>per week</span></div>
      <div><b>{{energy}}</b><span>a day, energy balance</span></div>
      <div><b>{{forecast}}</b><span>{{forecastLabel}}</span></div>
    </div>
    <nav class="ranges" aria-label="Period">
      {{#ranges}}<a href="/?range={{name}}" class="{{#on}}on{{/on}}"{{#on}} aria-current="page"{{/on}}>{{label}}</a>{{/ranges}}
    </nav>
    <div class="card chart">
      {{{chart}}}
      <p class="muted">Trend {{latestTrend}} · <a href="/chart.svg?range={{range}}" download="cinn-trend.svg">Download chart (SVG)</a></p>
    </div>
    {{/hasData}}
    </div><div>
    {{#form.confirmation}}<div class="card confirm" id="weight-confirm" role="alert">
      <p><b>{{form.confirmation}}</b></p>
      <form method="post" action="/weigh-ins" class="actions">
        <input type="hidden" name="weight" value="{{form.weight}}"><input type="hidden" name="date" value="{{form.date}}">
        <input type="hidden" name="note" value="{{form.note}}"><input type="hidden" name="confirm" value="true">
        <button type="submit" id="save-anyway">Save {{form.weight}} {{unit}} anyway</button>
        <a class="button secondary" href="#weight">Fix it</a>
      </form>
    </div>{{/form.confirmation}}
    <form id="add-weight" class="card" method="post" action="/weigh-ins">
      <h2 class="first">Add a weigh-in</h2>
      {{#formError}}<p class="error" role="alert">{{formError}}</p>{{/formError}}
      <div class="row">
        <div><label for="weight">Weight ({{unit}})</label>
          <input id="weight" name="weight" inputmode="decimal" autocomplete="off" required placeholder="{{placeholder}}" value="{{form.weight}}"></div>
        <div><label for="date">Day</label><input id="date" name="date" type="date" value="{{form.date}}" max="{{today}}"></div>
      </div>
      <label for="note">Note (optional)</label><input id="note" name="note" maxlength="500" value="{{form.note}}">
      <p><button type="submit">Add weight</button></p>
    </form>
    {{^hasData}}<p class="card empty">No weigh-ins yet. Add today's weight above, or <a href="/import">import a file</a> from another app.</p>{{/hasData}}
    {{#hasData}}
    <h2>Latest weigh-ins</h2>
    <div class="card"><table>
      <thead><tr><th>Day</th><th class="num">Weight</th><th class="num">Trend</th></tr></thead>
      <tbody>{{#latest}}<tr><td>{{day}}</td><td class="num">{{weight}}</td><td class="num">{{trend}}</td></tr>{{/latest}}</tbody>
    </table><p class="go"><a href="/weigh-ins">All weigh-ins, edit and delete →</a></p></div>
    {{/hasData}}
    </div></div>
    """

    static let weighIns = """
    <h1>Weigh-ins</h1>
    {{^hasItems}}<p class="card empty">No weigh-ins yet. <a href="/">Add one</a> or <a href="/import">import a file</a>.</p>{{/hasItems}}
    {{#hasItems}}
    <p class="muted">Tap a weigh-in to edit or delete it.</p>
    <div class="card"><table>
      <thead><tr><th>When</th><th class="num">Weight</th></tr></thead>
      <tbody>
      {{#items}}<tr><td><a class="rowlink" href="/weigh-ins/{{id}}/edit" aria-label="Edit {{weight}} on {{day}}">{{day}} <span class="muted">{{time}}</span>{{#note}}<br><span class="muted">{{note}}</span>{{/note}}</a></td>
        <td class="num"><a class="rowlink" href="/weigh-ins/{{id}}/edit" tabindex="-1">{{weight}}</a></td></tr>{{/items}}
      </tbody></table>
      <p class="row">{{#newer}}<a class="button secondary" href="/weigh-ins?page={{newer}}">← Newer</a>{{/newer}}
        {{#older}}<a class="button secondary" href="/weigh-ins?page={{older}}">Older →</a>{{/older}}</p>
    </div>
    {{/hasItems}}
    """

    static let edit = """
    <p class="go"><a href="/weigh-ins">← Weigh-ins</a></p>
    <h1>Edit weigh-in</h1>
    {{#confirmation}}<div class="card confirm" id="weight-confirm" role="alert">
      <p><b>{{confirmation}}</b></p>
      <form method="post" action="/weigh-ins/{{id}}" class="actions">
        <input type="hidden" name="weight" value="{{weight}}"><input type="hidden" name="date" value="{{time}}">
        <input type="hidden" name="note" value="{{note}}"><input type="hidden" name="confirm" value="true">
        <button type="submit" id="save-anyway">Save {{weight}} {{unit}} anyway</button>
        <a class="button secondary" href="#weight">Fix it</a>
      </form>
    </div>{{/confirmation}}
    <form class="card" method="post" action="/weigh-ins/{{id}}">
      {{#formError}}<p class="error" role="alert">{{formError}}</p>{{/formError}}
      <label for="weight">Weight ({{unit}})</label><input id="weight" name="weight" inputmode="decimal" required value="{{weight}}">
      <label for="date">Time</label><input id="date" name="date" type="datetime-local" step="1" value="{{time}}">
      <label for="note">Note</label><input id="note" name="note" maxlength="500" value="{{note}}">
      <p class="row"><button type="submit">Save</button><a class="button secondary" href="/weigh-ins">Cancel</a></p>
    </form>
    <p><a class="button secondary" href="/weigh-ins/{{id}}/delete">Delete this weigh-in…</a></p>
    """

    static let confirmDelete = """
    <h1>Delete this weigh-in?</h1>
    <div class="card"><p><b>{{weight}} {{unit}}</b> on {{day}} at {{clock}}</p>
    <form method="post" action="/weigh-ins/{{id}}/delete" class="row">
      <button class="danger" type="submit">Delete</button><a class="button secondary" href="/weigh-ins">Keep it</a>
    </form></div>
    """

    static let importPage = """
    <h1>Import</h1>
    <form class="card" id="import-form" method="post" action="/import#import-form" enctype="multipart/form-data" data-progress-form>
      {{#formError}}<p class="error" role="alert">{{.}}</p>{{/formError}}
      <p class="muted">An export of {{formatList}}. You see what the file holds before anything is written.</p>
      <label for="file">File</label><input id="file" name="file" type="file" required>
      <div class="row">
        <div><label for="format">Format</label><select id="format" name="format"><option value="">Detect</option>
          {{#formats}}<option value="{{value}}">{{name}}</option>{{/formats}}</select></div>
        <div><label for="unit">Unit, if the file has none</label><select id="unit" name="unit"><option value="">—</option>
          <option value="kg">kg</option><option value="lb">lb</option><option value="st">st</option></select></div>
      </div>
      <p><label><input type="checkbox" name="skip_invalid" value="true"> Import the good rows even if some are invalid</label></p>
      <p><button type="submit">Check the file</button></p>
      \(progressBox)
    </form>
    <script src="/static/progress.js"></script>
    <h2>Earlier imports</h2>
    {{^batches}}<p class="muted">None yet.</p>{{/batches}}
    {{#hasBatches}}<div class="card"><table class="imports">
      <thead><tr><th>File</th><th></th></tr></thead><tbody>
      {{#batches}}<tr><td><span class="file-name">{{name}}</span><br><span class="muted">#{{id}} · {{format}} · {{when}} · {{imported}} added</span></td>
        <td class="num">{{#undone}}<span class="muted">undone</span>{{/undone}}{{^undone}}<a class="button secondary" href="/imports/{{id}}/undo">Undo…</a>{{/undone}}</td></tr>{{/batches}}
    </tbody></table></div>{{/hasBatches}}
    """

    static let importReport = """
    <h1>{{heading}}</h1>
    <div class="card" id="import-report">
      <p>{{summary}}</p>
      <table><tbody>
        <tr><td>Format</td><td class="num">{{format}}</td></tr>
        <tr><td>Rows read</td><td class="num">{{rowsRead}}</td></tr>
        <tr><td>{{importedLabel}}</td><td class="num">{{imported}}</td></tr>
        <tr><td>Already in your journal</td><td class="num">{{duplicates}}</td></tr>
        {{#skipped}}<tr><td>Nothing to import <span class="muted">({{skippedKinds}})</span></td><td class="num">{{skipped}}</td></tr>{{/skipped}}
        <tr><td>Invalid rows</td><td class="num">{{rejectedCount}}</td></tr>
      </tbody></table>
      {{#hasHealthDays}}<h2>Other health data, per day</h2><table><thead><tr><th>Type</th><th class="num">Days</th><th class="num">{{healthDaysWrittenLabel}}</th></tr></thead><tbody>
        {{#healthDays}}<tr><td>{{name}} <span class="muted">{{unit}}</span></td><td class="num">{{days}}</td><td class="num">{{written}}</td></tr>{{/healthDays}}
      </tbody></table>{{/hasHealthDays}}
      {{#hasRejected}}<h2>Invalid rows</h2><ul>{{#rejected}}<li>Line {{line}}{{#field}} ({{field}}){{/field}}: {{reason}}</li>{{/rejected}}</ul>{{/hasRejected}}
      {{#token}}<form method="post" action="/import/{{token}}{{#goodRows}}?skip_invalid=true{{/goodRows}}" data-progress-form data-progress="{{token}}">
        <p class="actions">{{#goodRows}}<button type="submit">Import the {{.}} good {{things}}</button>{{/goodRows}}{{^goodRows}}<button type="submit">Import {{imported}} {{things}}</button>{{/goodRows}}<a class="button secondary" href="/import">Cancel</a></p>
        \(progressBox)</form><script src="/static/progress.js"></script>{{/token}}
      {{^token}}<p><a href="{{nextLink}}">{{nextLabel}}</a> · <a href="/import">Imports</a></p>{{/token}}
    </div>
    """

    /// Undoing an import, once more: what it removes.
    static let undoImport = """
    <h1>Undo import #{{id}}?</h1>
    <form class="card" method="post" action="/imports/{{id}}/undo">
      <p><b>{{name}}</b><br><span class="muted">{{from}}</span></p>
      <p>{{#removes}}{{.}} Importing the file again brings it back.{{/removes}}{{^removes}}Nothing it added is left in your journal.{{/removes}}</p>
      <p class="actions"><button type="submit" class="danger">Undo the import</button><a class="button secondary" href="/import">Keep it</a></p>
    </form>
    """

    /// A file that does not say which unit its weights are in: which is it?
    static let importUnit = """
    <h1>Which unit are the weights in?</h1>
    <form class="card" method="post" action="/import/{{token}}/unit">
      <p>{{#fileName}}<b>{{.}}</b>: {{/fileName}}{{question}}</p>
      <label for="unit">Unit</label><select id="unit" name="unit" required><option value="kg">kg</option><option value="lb">lb</option>
        <option value="st">st</option></select>
      <p class="actions"><button type="submit">Check the file</button><a class="button secondary" href="/import">Cancel</a></p>
    </form>
    """

    /// Where an import's progress shows while the page waits (filled by `progressScript`).
    static let progressBox = """
    <div class="import-progress" hidden><progress max="1"></progress><p class="muted" aria-live="polite"></p></div>
    """

    /// Progress for the import forms: the upload's bytes, then the rows read (polled from
    /// /import/progress/{id}); the answer replaces the page as a plain submit would. Without it the forms post as usual.
    static let progressScript = """
    (() => {
      const form = document.currentScript.previousElementSibling;
      if (!form || !form.matches('form[data-progress-form]') || !window.FormData) return;
      const box = form.querySelector('.import-progress'), bar = box.querySelector('progress'), text = box.querySelector('p');
      const megabytes = n => (n / 1048576).toFixed(1) + ' MB';
      const newID = () => 'xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx'.replace(/x/g, () => (Math.random() * 16 | 0).toString(16));
      form.addEventListener('submit', event => {
        event.preventDefault();
        const id = form.dataset.progress || newID();
        const data = new FormData(form);
        if (!form.dataset.progress) data.set('progress', id);
        const button = form.querySelector('button[type=submit]');
        button.disabled = true;
        box.hidden = false;
        const phase = form.dataset.progress ? 'Importing' : 'Checking';
        let timer = null;
        const poll = () => fetch('/import/progress/' + id, {cache: 'no-store'}).then(r => r.ok ? r.json() : null).then(p => {
          if (!p) return;
          if (p.fraction == null) bar.removeAttribute('value'); else bar.value = p.fraction;
          text.textContent = phase + ': ' + p.rowsRead.toLocaleString() + ' rows read'
            + (p.fraction == null ? '' : ' (' + Math.round(p.fraction * 100) + ' %)');
        }).catch(() => {});
        const waitForServer = () => {
          if (timer) return;
          bar.removeAttribute('value');
          text.textContent = phase + '…';
          timer = setInterval(poll, 400);
        };
        const request = new XMLHttpRequest();
        request.open('POST', form.action);
        if (form.elements._csrf) request.setRequestHeader('X-CSRF-Token', form.elements._csrf.value);
        request.upload.onprogress = e => {
          if (!e.lengthComputable || form.dataset.progress) return;
          bar.value = e.loaded / e.total;
          text.textContent = 'Uploading: ' + megabytes(e.loaded) + ' of ' + megabytes(e.total);
        };
        request.upload.onload = waitForServer;
        request.onload = () => {
          clearInterval(timer);
          document.open();
          document.write(request.responseText);
          document.close();
        };
        request.onerror = () => {
          clearInterval(timer);
          button.disabled = false;
          text.textContent = 'The connection failed; try again.';
        };
        request.send(data);
        if (form.dataset.progress) waitForServer();
      });
    })();
    """

    /// The More tab: the pages that are not tabs of their own, and in hosted mode who is logged in.
    static let more = """
    <h1>More</h1>
    <ul class="card menu">
      <li><a href="/weigh-ins">Weigh-ins<small>Every reading: edit and delete</small></a></li>
      <li><a href="/energy">Energy<small>What you burn, your calorie target and the weekly check-in</small></a></li>
      <li><a href="/import">Import<small>Files from other apps, earlier imports and undo</small></a></li>
      <li><a href="/more-data">Health data<small>Steps, heart rate, sleep… from Apple Health</small></a></li>
      <li><a href="/profile">Profile<small>Sex, birth date, height, activity and how the target is made</small></a></li>
      <li><a href="/settings">Goal and settings<small>Your goal, units, time zone and exports</small></a></li>
    </ul>
    {{#accountName}}<div class="card">
      <p>Logged in as <b>{{accountName}}</b></p>
      <p class="go"><a href="/account">Account: password, API tokens{{#isAdmin}}, invites{{/isAdmin}}</a></p>
      <form method="post" action="/logout"><button type="submit" class="secondary">Log out</button></form>
    </div>{{/accountName}}
    """

    static let settings = """
    <h1>Goal and settings</h1>
    {{#formError}}<p class="error card" role="alert">{{formError}}</p>{{/formError}}
    <p class="card go"><a href="/profile" id="profile-link">Profile, calorie target and body fat →</a></p>
    <p class="card go"><a href="/more-data" id="health-link">Health data: steps, heart rate, sleep… from Apple Health →</a></p>
    <form class="card" method="post" action="/goal" id="goal-form">
      <h2 class="first">Goal</h2>
      {{#goal}}<p>Now: <b>{{goal}}</b>{{#goalRate}}, planned {{goalRate}} a week{{/goalRate}} <span class="muted">(set {{goalSet}})</span></p>{{/goal}}
      {{^goal}}<p class="muted">No goal yet: set one to get a yes or no.</p>{{/goal}}
      <div class="row">
        <div><label for="goal-weight">Goal weight ({{unit}})</label><input id="goal-weight" name="weight" inputmode="decimal" required value="{{goalWeightValue}}"></div>
        <div><label for="goal-rate">Planned {{unit}} per week (optional)</label><input id="goal-rate" name="rate" inputmode="decimal" value="{{goalRateValue}}"></div>
      </div>
      <p class="row"><button type="submit">Save goal</button></p>
    </form>
    {{#goal}}<form method="post" action="/goal/clear"><button class="secondary" type="submit">Clear the goal</button></form>{{/goal}}
    <form class="card" method="post" action="/settings">
      <h2 class="first">Settings</h2>
      <label for="unit">Unit</label><select id="unit" name="unit">{{#units}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/units}}</select>
      <label for="trend-method">Trend</label><select id="trend-method" name="trend_method">{{#methods}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/methods}}</select>
      <label for="time-zone">Time zone</label><select id="time-zone" name="time_zone">{{#timeZones}}<option{{#selected}} selected{{/selected}}>{{value}}</option>{{/timeZones}}</select>
      <label for="energy-target">Daily calorie target (kcal)</label>
      <input id="energy-target" name="energy_target" inputmode="decimal" autocomplete="off" value="{{energyTarget}}" placeholder="none" aria-describedby="energy-target-help">
      <p id="energy-target-help" class="muted">The food log shows what is left of it each day. Leave it empty for no target.</p>
      <label for="energy-unit">Show energy in</label><select id="energy-unit" name="energy_unit">{{#energyUnits}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/energyUnits}}</select>
      <label for="glucose-unit">Show blood glucose in</label><select id="glucose-unit" name="glucose_unit">{{#glucoseUnits}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/glucoseUnits}}</select>
      <p><button type="submit">Save settings</button></p>
    </form>
    <div class="card"><h2 class="first">Export</h2>
      <p class="muted">Weigh-ins</p>
      <p class="actions"><a class="button secondary" href="/export.csv">CSV</a> <a class="button secondary" href="/export.json">JSON</a></p>
      <p class="muted">Food journal: everything as JSON, or one table as CSV</p>
      <p class="actions" id="food-export"><a class="button secondary" href="/api/v1/food-journal">JSON</a>
        <a class="button secondary" href="/api/v1/food-journal?format=csv">Entries</a>
        <a class="button secondary" href="/api/v1/food-journal?format=csv&amp;table=days">Days</a>
        <a class="button secondary" href="/api/v1/food-journal?format=csv&amp;table=foods">Foods</a></p>
      <p class="muted">Keep them as a backup: Cinn reads the food journal file back, foods, entries and all.</p></div>
    """

    static let error = """
    <h1>{{heading}}</h1>
    <div class="card"><p>{{message}}</p><p class="go"><a href="{{back}}">Go back</a></p></div>
    """
}
