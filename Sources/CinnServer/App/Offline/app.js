// Every page: registers the service worker (sw.js) that keeps Cinn's pages for when the server cannot be reached, and
// shows what it keeps to send: entries made offline wait on the device until Cinn can be reached (docs/phone-app.md).
(() => {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  const worker = navigator.serviceWorker;
  worker.register('/sw.js', { scope: '/' }).catch(() => {});
  // Whose page this is in hosted mode: entries kept for another account on this device are only counted.
  const meta = document.querySelector('meta[name="cinn-account"]'), account = meta ? meta.content : '';
  const tell = message => worker.controller && worker.controller.postMessage(message);
  const send = () => tell({ type: 'send' });
  let retry;

  worker.addEventListener('message', event => {
    if (event.data && event.data.type === 'queue') show(event.data.entries, event.data.sent);
  });
  window.addEventListener('online', send);
  // A page brought back by the Back button would post forms under keys already used: it is loaded again instead.
  window.addEventListener('pageshow', event => { if (event.persisted) location.reload(); });
  send();

  function show(entries, sent) {
    const mine = entries.filter(entry => entry.account === account), others = entries.length - mine.length;
    const waiting = mine.filter(entry => ['waiting', 'login', 'account'].includes(entry.state));
    const login = mine.some(entry => entry.state === 'login');
    clearTimeout(retry);
    if (waiting.length && !login) retry = setTimeout(send, 20000);
    let box = document.getElementById('queue');
    if (!mine.length && !others && !sent) {
      if (box) box.remove();
      return;
    }
    if (!box) {
      box = element('section', 'card queue');
      box.id = 'queue';
      box.setAttribute('role', 'status');
      const mark = document.getElementById('offline-mark'), main = document.getElementById('main');
      if (mark) mark.after(box); else if (main) main.prepend(box); else return;
    }
    box.replaceChildren();
    const head = box.appendChild(element('p'));
    if (waiting.length) {
      head.appendChild(element('b', '', count(waiting.length, 'entry', 'entries') + ' waiting to send'));
      head.append(login ? '. Log in to send them: they are kept on this device until you do. ' :
        ' — kept on this device, and sent as soon as Cinn can be reached.');
      if (login) head.appendChild(link('/login', 'Log in'));
    } else if (sent) {
      head.appendChild(element('b', '', 'Sent ' + count(sent, 'entry', 'entries') + ' kept on this device. '));
      head.appendChild(link(location.href, 'Show them'));
    }
    const list = element('ul', 'queue-list');
    for (const entry of mine) {
      const item = list.appendChild(element('li', entry.state === 'refused' || entry.state === 'confirm' ? 'refused' : ''));
      item.appendChild(element('span', '', entry.what));
      if (entry.state === 'refused' || entry.state === 'confirm') {
        item.appendChild(element('small', 'error', (entry.state === 'confirm' ? 'Cinn asks: ' : 'Not sent: ') + entry.message));
        const actions = item.appendChild(element('span', 'actions'));
        if (entry.state === 'confirm') actions.appendChild(button('Send it as it is', '', () => tell({ type: 'confirm', id: entry.id })));
        actions.appendChild(button('Remove', 'secondary', () => tell({ type: 'remove', id: entry.id })));
      }
    }
    if (mine.length) box.appendChild(list);
    if (others) {
      box.appendChild(element('p', 'muted', count(others, 'entry', 'entries') + ' kept on this device ' +
        (others === 1 ? 'waits' : 'wait') + ' for the account that made ' + (others === 1 ? 'it' : 'them') + ' to log in.'));
    }
  }

  function count(number, one, many) { return number + ' ' + (number === 1 ? one : many); }

  function element(name, className, text) {
    const made = document.createElement(name);
    if (className) made.className = className;
    if (text) made.textContent = text;
    return made;
  }

  function link(href, text) {
    const made = element('a', '', text);
    made.href = href;
    return made;
  }

  function button(text, className, action) {
    const made = element('button', className, text);
    made.type = 'button';
    made.addEventListener('click', action);
    return made;
  }
})();
