// Arbiter web: chess clocks drawn from the server's state.  The server is the
// clock; the page only interpolates between two updates.  Each update gives the
// remaining milliseconds of both sides as of the moment it was sent and which
// side is running; the view counts down from the moment it arrived and snaps to
// the server's figure on every update, so drift never accumulates.

export function formatClock(ms) {
  if (ms === null || ms === undefined) return '–:––';
  const neg = ms < 0;
  ms = Math.abs(ms);
  const totalTenths = Math.floor(ms / 100);
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  let out;
  if (h > 0) out = `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}`;
  else if (ms < 10000) out = `${m}:${String(sec).padStart(2, '0')}.${totalTenths % 10}`;
  else out = `${m}:${String(sec).padStart(2, '0')}`;
  return neg ? '−' + out : out;
}

// A pair of clock elements ticking together.
export class ClockPair {
  // els: {white: Element, black: Element}; onTick(side, ms) optional.
  constructor(els) {
    this.els = els;
    this.ms = { white: null, black: null };
    this.running = null;
    this.at = performance.now();
    this.frame = null;
    this.shown = { white: '', black: '' };
  }

  // state: {white_ms, black_ms, running: 'white'|'black'|null}; lagMs: how
  // long ago the server measured it (when known), so the view starts closer.
  update({ white_ms, black_ms, running }, lagMs = 0) {
    this.ms = { white: white_ms, black: black_ms };
    this.running = running || null;
    this.at = performance.now() - Math.max(0, lagMs);
    this.draw();
    if (this.running && !this.frame) this.loop();
  }

  remaining(side) {
    const base = this.ms[side];
    if (base === null || base === undefined) return null;
    return this.running === side ? base - (performance.now() - this.at) : base;
  }

  draw() {
    for (const side of ['white', 'black']) {
      const el = this.els[side];
      if (!el) continue;
      const ms = this.remaining(side);
      const text = formatClock(ms === null ? null : Math.max(0, ms));
      if (text !== this.shown[side]) { el.textContent = text; this.shown[side] = text; }
      el.classList.toggle('running', this.running === side);
      el.classList.toggle('low', ms !== null && ms < 60000);
      el.classList.toggle('flagged', ms !== null && ms <= 0);
    }
  }

  loop() {
    this.frame = requestAnimationFrame(() => {
      this.frame = null;
      this.draw();
      if (this.running) this.loop();
    });
  }

  stop() { if (this.frame) cancelAnimationFrame(this.frame); this.frame = null; }
}
