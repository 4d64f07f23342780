// The Glucose page's lead keeps itself current: every minute while the page is shown (and when it is shown again),
// the section is fetched again from /glucose/live and put in place. Without script the page shows the value it loaded with.
(() => {
  if (!document.getElementById('live') || !window.fetch) return;
  const refresh = async () => {
    const current = document.getElementById('live');
    if (!current || document.visibilityState !== 'visible') return;
    try {
      const query = new URLSearchParams({ hours: current.dataset.hours, days: current.dataset.days });
      const response = await fetch('/glucose/live?' + query, { credentials: 'same-origin' });
      if (!response.ok) return;
      const holder = document.createElement('div');
      holder.innerHTML = await response.text();
      const fresh = holder.querySelector('#live');
      if (fresh) current.replaceWith(fresh);
    } catch (_) {
      // Offline or the server restarting: what is shown stays until the next try.
    }
  };
  setInterval(refresh, 60000);
  document.addEventListener('visibilitychange', refresh);
})();
