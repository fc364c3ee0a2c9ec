// Arbiter web: a live stream that survives Wi-Fi drops and daemon restarts.
// EventSource reconnects by itself after a dropped connection (sending
// Last-Event-ID), but gives up for good when the server is down at that moment
// or answers with an error.  This wrapper then opens a new one after a backoff,
// and on every (re)open tells the page through onOpen so it resynchronises with
// a plain GET: the stream only carries changes, the GET carries the truth, so a
// gap in the stream can never leave the page wrong.

export class LiveStream {
  // url: the stream's address; types: event names to listen for ('message' is
  // always heard); onEvent(type, data, id); onOpen(); onStatus('live'|'offline').
  constructor(url, { types = [], onEvent, onOpen, onStatus } = {}) {
    Object.assign(this, { url, types, onEvent, onOpen, onStatus });
    this.lastId = null;
    this.delay = 500;
    this.closed = false;
    this.connect();
    // The browser knows of a lost network before a quiet stream does.
    this.onOnline = () => { this.delay = 500; this.reconnectSoon(0); };
    this.onOffline = () => { clearTimeout(this.timer); this.es?.close(); this.onStatus?.('offline'); };
    window.addEventListener('online', this.onOnline);
    window.addEventListener('offline', this.onOffline);
  }

  connect() {
    if (this.closed) return;
    const es = new EventSource(this.url, { withCredentials: true });
    this.es = es;
    es.onopen = () => {
      this.delay = 500;
      this.onStatus?.('live');
      this.onOpen?.();
    };
    es.onerror = () => {
      this.onStatus?.('offline');
      if (es.readyState === EventSource.CLOSED) this.reconnectSoon(this.delay);
      // While CONNECTING the browser retries by itself; a resync follows onopen.
    };
    const handle = (type) => (ev) => {
      if (ev.lastEventId) this.lastId = ev.lastEventId;
      let data = ev.data;
      try { data = JSON.parse(ev.data); } catch { /* plain text event */ }
      this.onEvent?.(type, data, ev.lastEventId);
    };
    es.onmessage = handle('message');
    for (const t of this.types) es.addEventListener(t, handle(t));
  }

  reconnectSoon(ms) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.es?.close();
      this.connect();
    }, ms);
    this.delay = Math.min(this.delay * 2, 8000);
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.es?.close();
    window.removeEventListener('online', this.onOnline);
    window.removeEventListener('offline', this.onOffline);
  }
}
