/// The web app's mustache templates. Pages render their body, then `layout` wraps it.
enum Templates {
    /// Every page's template by name: the layout and the error page, then each feature's.
    static let all: [String: String] = [WeightTemplates.all, ImportTemplates.all, SettingsTemplates.all, FoodTemplates.all,
                                        EnergyTemplates.all, WorkoutTemplates.all, AccountTemplates.all, GlucoseTemplates.all,
                                        HealthTemplates.all]
        .reduce(["layout": layout, "error": error]) { all, feature in
            all.merging(feature) { _, _ in preconditionFailure("two templates have one name") }
        }

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

    static let error = """
    <h1>{{heading}}</h1>
    <div class="card"><p>{{message}}</p><p class="go"><a href="{{back}}">Go back</a></p></div>
    """
}
