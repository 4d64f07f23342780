// "Can I nom nom this?": a fresh answer from /food/nom as the amounts, the time or the bolus of the form change.
(() => {
  const holder = document.querySelector('[data-nom]');
  const form = holder && holder.closest('form');
  if (!form) return;
  const fields = ['servings', 'serving', 'meal', 'meal_name', 'date', 'time', 'bolus', 'energy', 'protein_g', 'carbohydrate_g', 'fat_g', 'name'];
  let timer, controller;
  function refresh() {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const query = new URLSearchParams(holder.dataset.nom);
      for (const [name, value] of new FormData(form)) {
        if (fields.includes(name) && String(value).trim() !== '') query.set(name, value);
      }
      query.set('fragment', 'true');
      if (controller) controller.abort();
      controller = new AbortController();
      try {
        const response = await fetch('/food/nom?' + query, { signal: controller.signal, credentials: 'same-origin' });
        if (!response.ok) return;
        const next = new DOMParser().parseFromString(await response.text(), 'text/html').getElementById('nom-answer');
        const current = document.getElementById('nom-answer');
        if (next && current) current.replaceWith(next);
      } catch (error) {
        // Offline or aborted by a newer change: the answer shown stays until the next one arrives.
      }
    }, 400);
  }
  form.addEventListener('input', refresh);
  form.addEventListener('change', refresh);
})();
