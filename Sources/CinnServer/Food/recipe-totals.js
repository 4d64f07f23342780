// The recipe editor's totals as you type: each ingredient's energy, the whole recipe's and one serving's, from the
// foods' macros per 100 g and the servings' grams the page carries. Without this script, "Work out the totals" does
// the same on the server.
(() => {
  const form = document.getElementById('recipe-form');
  const totals = document.querySelector('#recipe-totals b'), perServing = document.getElementById('recipe-per-serving');
  if (!form || !totals) return;
  const kj = form.dataset.energyUnit === 'kJ';
  const energy = kcal => Math.round(kj ? kcal * 4.184 : kcal) + (kj ? ' kJ' : ' kcal');
  // As the server writes amounts: whole from 10, one decimal from 1, else two, without trailing zeros.
  const grams = value => String(Number(value.toFixed(value >= 10 ? 0 : value >= 1 ? 1 : 2)));
  const number = text => parseFloat(String(text).replace(',', '.'));
  function update() {
    const sum = {energy: 0, protein: 0, carbohydrate: 0, fat: 0};
    let complete = true;
    for (const row of form.querySelectorAll('li.ingredient')) {
      let amounts = null;
      if (row.dataset.fixed) {
        amounts = JSON.parse(row.dataset.fixed);
      } else if (row.dataset.per100) {
        const per100 = JSON.parse(row.dataset.per100);
        const count = number(row.querySelector('input[name^="servings."]')?.value);
        const option = row.querySelector('select[name^="serving."]')?.selectedOptions[0];
        const weight = number(option?.dataset.grams);
        if (count > 0 && weight > 0) amounts = Object.fromEntries(Object.entries(per100).map(([key, value]) => [key, value * weight / 100 * count]));
      }
      const shown = row.querySelector('.entry-energy');
      if (!amounts) { complete = false; if (shown) shown.textContent = '—'; continue; }
      if (shown) shown.textContent = energy(amounts.energy || 0);
      for (const key in sum) sum[key] += amounts[key] || 0;
    }
    totals.textContent = complete ? 'Whole recipe: ' + energy(sum.energy) : '';
    const servings = number(form.elements.servings.value);
    perServing.textContent = complete && servings > 0
      ? 'One serving: ' + energy(sum.energy / servings) + ' · protein ' + grams(sum.protein / servings) + ' g · carbs '
        + grams(sum.carbohydrate / servings) + ' g · fat ' + grams(sum.fat / servings) + ' g'
      : '';
  }
  form.addEventListener('input', event => { if (event.target.matches('input[name^="servings"]')) update(); });
  form.addEventListener('change', event => { if (event.target.matches('select[name^="serving."]')) update(); });
})();
