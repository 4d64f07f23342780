// Every page: registers the service worker (sw.js) that keeps Cinn's pages for when the server cannot be reached.
(() => {
  if ('serviceWorker' in navigator && window.isSecureContext) {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {});
  }
})();
