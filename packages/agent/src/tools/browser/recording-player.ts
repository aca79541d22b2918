/**
 * A recording is one self-contained HTML file: the frames (JPEG, base64) are appended as they come, one
 * `<script>` line each, and the player is written last. Any web browser plays it; no ffmpeg is needed.
 */
export const RECORDING_HEADER = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Browser recording</title>
<style>
  body { margin: 0; font: 14px system-ui, sans-serif; background: #222; color: #eee; }
  #controls { display: flex; gap: 12px; align-items: center; padding: 8px 12px; background: #111; }
  #position { flex: 1; }
  #frame { display: block; max-width: 100%; margin: 0 auto; background: #fff; }
</style>
</head>
<body>
<div id="controls">
  <button id="play" type="button">Pause</button>
  <input id="position" type="range" min="0" value="0">
  <span id="time">0.0 s</span>
</div>
<img id="frame" alt="Recorded frame">
<script>const FRAMES = [];</script>
`;

export function frameLine(atMs: number, jpegBase64: string): string {
  return `<script>FRAMES.push([${atMs},"${jpegBase64}"]);</script>\n`;
}

export function recordingFooter(note: string): string {
  return `<script>
(() => {
  const note = ${JSON.stringify(note)};
  const image = document.getElementById('frame');
  const position = document.getElementById('position');
  const time = document.getElementById('time');
  const button = document.getElementById('play');
  if (note) document.getElementById('controls').append(note);
  if (FRAMES.length === 0) { time.textContent = 'No frames were recorded.'; return; }
  position.max = String(FRAMES.length - 1);
  let index = 0;
  let playing = true;
  let timer;
  const show = (k) => {
    index = k;
    image.src = 'data:image/jpeg;base64,' + FRAMES[k][1];
    position.value = String(k);
    time.textContent = ((FRAMES[k][0] - FRAMES[0][0]) / 1000).toFixed(1) + ' s';
  };
  const advance = () => {
    clearTimeout(timer);
    if (!playing) return;
    if (index + 1 >= FRAMES.length) { playing = false; button.textContent = 'Play'; return; }
    const wait = Math.min(FRAMES[index + 1][0] - FRAMES[index][0], 2000);
    timer = setTimeout(() => { show(index + 1); advance(); }, wait);
  };
  button.onclick = () => {
    playing = !playing;
    button.textContent = playing ? 'Pause' : 'Play';
    if (playing && index + 1 >= FRAMES.length) show(0);
    advance();
  };
  position.oninput = () => { show(Number(position.value)); advance(); };
  show(0);
  advance();
})();
</script>
</body>
</html>
`;
}
