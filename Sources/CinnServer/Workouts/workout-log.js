// The logging page's clocks: the time since the workout started, and the rest after a set counting down (with
// buttons to add or take 15 s, and a vibration at the end where the phone offers it). Without it the page shows the
// start time and the rest to take.
(() => {
  const clock = s => { s = Math.max(0, Math.round(s)); const m = Math.floor(s / 60), r = s % 60; return m + ':' + (r < 10 ? '0' : '') + r; };
  const elapsed = document.querySelector('.elapsed[data-started]');
  if (elapsed) {
    const started = Number(elapsed.dataset.started);
    const tick = () => { elapsed.textContent = clock((Date.now() - started) / 1000) + ' so far'; };
    tick();
    setInterval(tick, 1000);
  }
  const rest = document.querySelector('.rest-timer[data-ends]');
  if (!rest) return;
  let ends = Number(rest.dataset.ends);
  const label = rest.querySelector('b');
  const controls = rest.querySelector('.rest-controls');
  controls.hidden = false;
  let done = false;
  const update = () => {
    const left = (ends - Date.now()) / 1000;
    if (left <= 0) {
      label.textContent = 'Rest over: next set';
      rest.classList.add('over');
      if (!done && navigator.vibrate) navigator.vibrate([200, 100, 200]);
      done = true;
      return;
    }
    done = false;
    rest.classList.remove('over');
    label.textContent = 'Rest ' + clock(left);
  };
  controls.addEventListener('click', event => {
    const button = event.target.closest('button[data-add]');
    if (!button) return;
    if (button.dataset.add === 'stop') { rest.hidden = true; return; }
    ends += Number(button.dataset.add) * 1000;
    update();
  });
  update();
  setInterval(update, 250);
})();
