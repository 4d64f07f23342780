// Progress for the import forms: the upload's bytes, then the rows read (polled from /import/progress/{id}); the answer replaces the page as a plain submit would. Without it the forms post as usual.
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
