// Search as you type: asks the JSON API after a short pause and shows the results in place.
(() => {
  const form = document.getElementById('food-search');
  if (!form || !window.fetch) return;
  const input = form.elements.q, list = document.getElementById('results');
  const status = document.getElementById('results-status'), none = document.getElementById('no-results');
  const browse = document.getElementById('browse');
  const kj = form.dataset.energyUnit === 'kJ';
  const context = new URLSearchParams();
  for (const name of ['meal', 'date']) if (form.elements[name]) context.set(name, form.elements[name].value);
  let timer, latest = 0;
  const energy = kcal => Math.round(kj ? kcal * 4.184 : kcal) + (kj ? ' kJ' : ' kcal');
  const grams = value => String(Math.round(value * 10) / 10);
  const span = (className, text) => {
    const element = document.createElement('span');
    element.className = className;
    element.textContent = text;
    return element;
  };
  function item(food) {
    const li = document.createElement('li'), a = document.createElement('a');
    li.className = 'result'; li.dataset.foodId = food.id;
    a.href = '/food/log/' + food.id + (context.toString() ? '?' + context : '');
    a.append(span('result-name', food.name));
    if (food.mine) a.append(' ', span('badge', 'mine'));
    if (food.last_used) a.append(' ', span('badge recent', 'recent'));
    const basis = food.basis || 'g', parts = [];
    if (food.brand) parts.push(food.brand);
    if (food.other_versions > 0) parts.push(food.other_versions + ' other version' + (food.other_versions === 1 ? '' : 's'));
    parts.push(food.energy_kcal_per_100 == null ? 'energy unknown' : energy(food.energy_kcal_per_100) + ' per 100 ' + basis);
    const serving = food.default_serving;
    if (serving) {
      const amount = grams(serving.grams) + ' ' + basis;
      parts.push(serving.label === amount ? amount : serving.label + ' (' + amount + ')');
    }
    a.append(span('result-detail', parts.join(' · ')));
    li.append(a);
    return li;
  }
  function show(results, query, approximate) {
    list.replaceChildren(...results.map(item));
    const count = results.length === 1 ? '1 food' : results.length + ' foods';
    status.textContent = approximate ? 'Nothing matches “' + query + '” as typed; ' + count + ' of a nearby search' : count;
    none.hidden = results.length > 0 && !approximate;
    browse.hidden = true;
  }
  function search() {
    const query = input.value.trim(), ticket = ++latest;
    const url = new URL(location.href);
    if (query) url.searchParams.set('q', query); else url.searchParams.delete('q');
    history.replaceState(null, '', url);
    if (!query) { list.replaceChildren(); status.textContent = ''; none.hidden = true; browse.hidden = false; return; }
    fetch('/api/v1/foods/search?limit=20&q=' + encodeURIComponent(query), { headers: { Accept: 'application/json' } })
      .then(response => response.ok ? response.json() : Promise.reject(response.status))
      .then(data => { if (ticket === latest) show(data.results, query, data.approximate); })
      .catch(() => { if (ticket === latest) status.textContent = 'Search did not answer; press Search to try again.'; });
  }
  input.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(search, 180); });
})();
