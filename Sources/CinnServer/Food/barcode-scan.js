// Camera barcode scanning where the browser offers it (the BarcodeDetector API and a camera): a Scan button beside the
// digits field opens the camera, and the first EAN or UPC code it sees fills the field and looks the food up. Where the
// browser has no BarcodeDetector (Firefox, Safari before 17, Chromium on Linux) the button stays hidden and the digits
// field is the way in.
(() => {
  const form = document.getElementById('barcode-form');
  const scan = document.getElementById('scan-barcode');
  if (!form || !scan) return;
  const formats = ['ean_13', 'ean_8', 'upc_a', 'upc_e'];
  if (!('BarcodeDetector' in window) || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) return;
  Promise.resolve(typeof BarcodeDetector.getSupportedFormats === 'function' ? BarcodeDetector.getSupportedFormats() : formats)
    .then(supported => {
      const usable = formats.filter(format => supported.includes(format));
      if (usable.length === 0) return;
      scan.hidden = false;
      const panel = document.getElementById('scanner'), video = document.getElementById('scanner-video');
      const status = document.getElementById('scanner-status'), stop = document.getElementById('scanner-stop');
      let stream = null, timer = null;
      function close(message) {
        clearTimeout(timer);
        if (stream) stream.getTracks().forEach(track => track.stop());
        stream = null;
        video.srcObject = null;
        panel.hidden = true;
        scan.hidden = false;
        if (message) status.textContent = message;
      }
      stop.addEventListener('click', () => close(''));
      scan.addEventListener('click', () => {
        const detector = new BarcodeDetector({ formats: usable });
        status.textContent = 'Point the camera at the barcode.';
        navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false }).then(media => {
          stream = media;
          video.srcObject = media;
          panel.hidden = false;
          scan.hidden = true;
          return video.play();
        }).then(() => {
          const look = () => {
            if (!stream) return;
            detector.detect(video).then(codes => {
              const code = codes.find(found => /^[0-9]{8,14}$/.test(found.rawValue));
              if (code) {
                close('Found ' + code.rawValue + '.');
                form.elements.code.value = code.rawValue;
                form.submit();
              } else {
                timer = setTimeout(look, 250);
              }
            }).catch(() => { timer = setTimeout(look, 500); });
          };
          look();
        }).catch(() => close('The camera did not open: type the digits under the bars instead.'));
      });
    })
    .catch(() => {});
})();
