// The log dialog's live preview: the energy and macros of the chosen servings, as you type.
(() => {
  const form = document.getElementById('log-form');
  if (!form) return;
  const per100 = JSON.parse(form.dataset.per100 || '{}'), kj = form.dataset.energyUnit === 'kJ';
  const count = form.elements.servings, serving = form.elements.serving;
  const number = value => String(Number(value.toFixed(value >= 10 ? 0 : value >= 1 ? 1 : 2)));
  function update() {
    const servings = parseFloat(count.value.replace(',', '.'));
    const grams = parseFloat(serving.selectedOptions[0].dataset.grams);
    for (const field of form.querySelectorAll('#log-preview [data-nutrient]')) {
      const key = field.dataset.nutrient, shown = field.querySelector('b');
      if (!(servings > 0) || !(key in per100)) { shown.textContent = '—'; continue; }
      const amount = per100[key] * grams / 100 * servings;
      shown.textContent = key === 'energy'
        ? Math.round(kj ? amount * 4.184 : amount) + (kj ? ' kJ' : ' kcal')
        : number(amount) + ' g';
    }
  }
  count.addEventListener('input', update);
  serving.addEventListener('change', update);
})();
