/// The import pages' templates, and the progress script the upload forms use.
enum ImportTemplates {
    static let all: [String: String] = ["import": importPage, "import-report": importReport, "import-unit": importUnit, "undo-import": undoImport]

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
}
