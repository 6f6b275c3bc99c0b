// Shared by the scoreboard and the calibration page: API calls (with the PIN when needed),
// the live stream, small DOM helpers; the language's t, nt, num, date from i18n.js (loaded first).
// No build step, no libraries.
"use strict";

const rig = Object.assign(rigI18n, {
  info: { sim: false, local: true, pin_required: false },
  pin: sessionStorage.getItem("rig-pin") || "",
  onLocked: null,   // set by a page: called when a change needs the PIN

  el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  },

  async getJSON(path) {
    const headers = { accept: "application/json" };
    if (rig.pin) headers["x-rig-pin"] = rig.pin;  // the history is for the display and PIN holders
    const response = await fetch(path, { headers, cache: "no-store" });
    if (response.status === 403 && rig.pin) rig.setPin("");  // a stale PIN: ask again, do not keep guessing
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    return response.json();
  },

  // An image as a URL: another device sends the PIN (the live camera is for the display and PIN holders).
  async imageURL(path) {
    if (rig.info.local || !rig.pin) return path;
    const response = await fetch(path, { headers: { "x-rig-pin": rig.pin }, cache: "no-store" });
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    return URL.createObjectURL(await response.blob());
  },

  // POST a JSON body; resolves to {ok, status, body}. A 403 asks for the PIN once and retries.
  // Each action carries one Idempotency-Key: a retry after a lost answer is not done twice.
  async post(path, body, retried, key) {
    key = key || (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`);
    const headers = { "content-type": "application/json", accept: "application/json", "idempotency-key": key };
    headers["x-rig-lang"] = rig.lang;  // a refusal ({"error"}) in the page's language (rig/display/speak.py)
    if (rig.pin) headers["x-rig-pin"] = rig.pin;
    let response;
    for (let attempt = 0; ; attempt++) {
      try {
        response = await fetch(path, { method: "POST", headers, body: JSON.stringify(body ?? {}) });
        break;
      } catch (err) {  // the answer was lost: the same key makes the retry safe
        if (attempt >= 2) return { ok: false, status: 0, body: { error: rig.t("the rig does not answer (network)") } };
        await new Promise((done) => setTimeout(done, 300 * (attempt + 1)));
      }
    }
    let data = {};
    try { data = await response.json(); } catch (err) { data = {}; }
    if (response.status === 403 && rig.pin) rig.setPin("");  // a wrong or stale PIN: ask again next time
    if (response.ok && rig.pin && !rig.unlocked) {
      rig.unlocked = true;
      const unlock = document.getElementById("btn-unlock");
      if (unlock) unlock.hidden = true;
    }
    if (response.status === 403 && !retried && rig.onLocked && !rig.info.local) {
      const pin = await rig.onLocked(data.error);
      if (pin) {
        rig.setPin(pin);
        return rig.post(path, body, true, key);
      }
    }
    if (!response.ok) rig.toast(data.error || `${response.status} ${response.statusText}`, "bad");
    return { ok: response.ok, status: response.status, body: data };
  },

  setPin(pin) {
    rig.pin = pin;
    if (pin) sessionStorage.setItem("rig-pin", pin); else sessionStorage.removeItem("rig-pin");
  },

  async loadInfo() {
    // in the page's language (the games' names, hints and keys): the cookie of the switch says it, a
    // page opened with ?lang= says it again
    const asked = new URLSearchParams(location.search).get("lang") ? `?lang=${encodeURIComponent(rig.lang)}` : "";
    try { rig.info = await rig.getJSON(`/api/display${asked}`); } catch (err) { /* keep defaults */ }
    return rig.info;
  },

  // Server-sent events with reconnect; calls onState(state) for each update.
  live(onState, onConnection) {
    let source = null;
    let retry = 500;
    const connect = () => {
      source = new EventSource("/api/events");
      // "live" once the first state is shown, not when the stream opens: until then the page has no
      // state, and a key pressed in between would be lost (issue 28)
      let shown = false;
      source.onopen = () => { retry = 500; };
      const handle = (event) => {
        if (!shown) rig.showRefusal(null);
        let state;
        try { state = JSON.parse(event.data); onState(state); } catch (err) { console.error(err); }
        if (state && !shown) { shown = true; onConnection && onConnection(true); }
        // the referee's views and the sound cues listen for this (referee.js, sound.js)
        if (state) rig.lastState = state;  // for a script that comes after the event (referee.js on a busy rig)
        if (state) document.dispatchEvent(new CustomEvent("rig:state", { detail: state }));
      };
      source.onmessage = handle;
      source.addEventListener("state", handle);
      source.onerror = async () => {
        onConnection && onConnection(false);
        source.close();
        // an EventSource never tells why: ask once more with fetch; a refusal (the viewer cap's 503, too many
        // tabs' 429) is said in plain words and tried again when the rig says (at most every 10 s)
        const refusal = await rig.streamRefusal();
        rig.showRefusal(refusal);
        if (refusal) { setTimeout(connect, Math.min(refusal.retryS, 10) * 1000); return; }
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, 5000);
      };
    };
    connect();
    return () => source && source.close();
  },

  // Why the live stream was refused ({text, retryS}), or null: it opened (then closed at once) or the rig is away.
  async streamRefusal() {
    const stop = new AbortController();
    try {
      const answer = await fetch("/api/events", { signal: stop.signal, cache: "no-store" });
      if (answer.status !== 503 && answer.status !== 429) { stop.abort(); return null; }
      let text = "";
      try { text = (await answer.json()).error || ""; } catch (err) { /* a proxy's page: keep the words below */ }
      const retryS = Math.max(1, Number(answer.headers.get("retry-after")) || 30);
      return { text: text || rig.t("the rig turned this device away ({status})", { status: answer.status }), retryS };
    } catch (err) {
      return null;
    }
  },

  // A lasting notice while this device is turned away (the viewer cap), gone once the stream is live.
  showRefusal(refusal) {
    let node = document.getElementById("stream-refused");
    if (!refusal) { if (node) node.remove(); return; }
    if (!node) {
      node = rig.el("div", { id: "stream-refused", class: "stream-refused", role: "status" });
      document.body.prepend(node);
    }
    node.textContent = rig.t("Not live on this device: {reason}. This page tries again by itself.", { reason: rig.t(refusal.text) });
  },

  toasts: [],
  toast(message, kind) {
    const box = document.getElementById("toasts") || document.body.appendChild(rig.el("div", { id: "toasts", class: "toasts" }));
    const node = rig.el("div", { class: `toast ${kind || ""}`, role: "alert", text: message });
    box.append(node);
    setTimeout(() => node.remove(), 6000);
  },
});
