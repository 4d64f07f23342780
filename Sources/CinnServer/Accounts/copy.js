// Copy buttons: a button with data-copy="ID" copies the text of the element with that id. The buttons are hidden
// until this script finds the clipboard, so the page reads the same without it (the text can be selected).
document.querySelectorAll('button[data-copy]').forEach(button => {
  const source = document.getElementById(button.dataset.copy);
  if (!source || !navigator.clipboard) return;
  const said = button.parentElement.querySelector('[data-copied]');
  button.hidden = false;
  button.addEventListener('click', () => {
    navigator.clipboard.writeText(source.textContent.trim()).then(
      () => { if (said) { said.textContent = 'Copied.'; said.hidden = false; } },
      () => { if (said) { said.textContent = 'Select the text and copy it.'; said.hidden = false; } });
  });
});
