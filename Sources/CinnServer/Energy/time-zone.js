// The welcome page's time zone: the browser's own, when the list has it (without script, the server's is selected).
(() => {
  const select = document.querySelector('select[data-browser-zone]');
  const zone = window.Intl && Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (select && zone && [...select.options].some(option => option.value === zone)) select.value = zone;
})();
