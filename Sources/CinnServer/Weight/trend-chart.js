// Reading the trend chart: a tap or a click shows the nearest day's date, weight and trend under the chart (every dot
// and trend point also has them as its <title>), and "PNG" draws the chart into a picture in the browser, for sharing
// from a phone. The server only ever sends the SVG.
(() => {
  const svg = document.getElementById('trend-chart');
  if (!svg) return;
  const tip = document.getElementById('chart-tip');
  // A point a day on the trend; on a long chart, which has none, the weigh-ins' dots (each says its trend too).
  let points = [...svg.querySelectorAll('circle.trend-point')];
  if (!points.length) points = [...svg.querySelectorAll('circle.weigh-in')];
  if (tip && points.length) {
    let chosen = null;
    svg.addEventListener('click', event => {
      const box = svg.getBoundingClientRect();
      const x = (event.clientX - box.left) * (svg.viewBox.baseVal.width / box.width);
      let nearest = points[0];
      for (const point of points) {
        if (Math.abs(point.cx.baseVal.value - x) < Math.abs(nearest.cx.baseVal.value - x)) nearest = point;
      }
      if (chosen) chosen.classList.remove('chosen');
      chosen = nearest;
      chosen.classList.add('chosen');
      const title = nearest.querySelector('title');
      tip.textContent = title ? title.textContent : '';
      tip.hidden = false;
    });
  }
  const png = document.getElementById('download-png');
  if (!png || !window.XMLSerializer || !HTMLCanvasElement.prototype.toBlob) return;
  png.parentElement.hidden = false;
  png.addEventListener('click', event => {
    event.preventDefault();
    const box = svg.getBoundingClientRect();
    const copy = svg.cloneNode(true);
    copy.setAttribute('width', String(Math.round(box.width)));
    copy.setAttribute('height', String(Math.round(box.height)));
    copy.querySelectorAll('.chosen').forEach(point => point.classList.remove('chosen'));
    const image = new Image();
    image.onload = () => {
      const scale = 2, canvas = document.createElement('canvas');
      canvas.width = Math.round(box.width * scale);
      canvas.height = Math.round(box.height * scale);
      const context = canvas.getContext('2d');
      context.scale(scale, scale);
      context.drawImage(image, 0, 0, box.width, box.height);
      canvas.toBlob(blob => {
        if (!blob) return;
        const link = document.createElement('a');
        link.href = URL.createObjectURL(blob);
        link.download = 'cinn-trend.png';
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(link.href), 10000);
      }, 'image/png');
    };
    image.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(new XMLSerializer().serializeToString(copy));
  });
})();
