// Sound cues made in the page with WebAudio (no audio files): the first toss of a turn, a dead
// heat, a turn scored, the winner. Mute and volume sit in the footer and are remembered on
// this device. The board reads the same without sound. Listens to "rig:state" (common.js).
"use strict";
const rigSound = (function () {
  const KEY = "rig-sound";
  const saved = (() => { try { return JSON.parse(localStorage.getItem(KEY)) || {}; } catch (err) { return {}; } })();
  const settings = { muted: Boolean(saved.muted), volume: typeof saved.volume === "number" ? saved.volume : 0.6 };
  let ctx = null;
  let previous = null;
  const log = [];  // the cues played (the browser tests read it)

  // each cue: [frequency Hz, start s, length s, wave] notes
  const CUES = {
    toss: [[988, 0, 0.09, "square"]],
    deadheat: [[660, 0, 0.32, "sawtooth"], [698, 0, 0.32, "sawtooth"], [660, 0.38, 0.32, "sawtooth"], [698, 0.38, 0.32, "sawtooth"]],
    scored: [[523, 0, 0.12, "triangle"], [784, 0.13, 0.2, "triangle"]],
    winner: [[523, 0, 0.15, "triangle"], [659, 0.15, 0.15, "triangle"], [784, 0.3, 0.15, "triangle"], [1047, 0.45, 0.45, "triangle"]],
  };

  function audio() {
    if (!ctx) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return null;
      ctx = new Context();
    }
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
    return ctx;
  }

  function play(name) {
    log.push(name);
    if (settings.muted || settings.volume <= 0) return;
    const ac = audio();
    if (!ac) return;
    const now = ac.currentTime + 0.02;
    for (const [freq, start, length, wave] of CUES[name] || []) {
      const osc = ac.createOscillator();
      const gain = ac.createGain();
      osc.type = wave;
      osc.frequency.value = freq;
      const peak = 0.25 * settings.volume;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(peak, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      osc.connect(gain).connect(ac.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.05);
    }
  }

  // What changed between two states → the cues to play.
  function cues(before, after) {
    if (!before || !after || !after.game) return [];
    const out = [];
    const sameGame = before.game && before.game.id === after.game.id;
    if (!sameGame) return out;
    const bt = before.turn, at = after.turn;
    const sameTurn = bt && at && bt.number === at.number;
    const list = (value) => (Array.isArray(value) ? value : []);
    const counting = (t) => list(t && t.tosses).filter((x) => x.counting).length;
    if (sameTurn && counting(bt) === 0 && counting(at) > 0) out.push("toss");
    if (sameTurn && list(at.dead_heats).length > list(bt.dead_heats).length) out.push("deadheat");
    if (list(after.turns).length > list(before.turns).length) out.push("scored");
    if (!before.winner && after.winner) out.push("winner");
    return out;
  }

  function save() { localStorage.setItem(KEY, JSON.stringify(settings)); }

  function controls() {
    const foot = document.querySelector("footer.foot") || document.body;
    const mute = rig.el("button", { id: "btn-sound", title: rig.t("sound on/off (key m)"), "aria-pressed": String(!settings.muted) });
    const volume = rig.el("input", { id: "sound-volume", type: "range", min: "0", max: "1", step: "0.05",
      value: String(settings.volume), "aria-label": rig.t("volume"), title: rig.t("volume") });
    const show = () => {
      mute.textContent = settings.muted ? rig.t("♪ sound off") : rig.t("♪ sound on");
      mute.setAttribute("aria-pressed", String(!settings.muted));
      volume.disabled = settings.muted;
    };
    mute.addEventListener("click", () => { settings.muted = !settings.muted; save(); show(); if (!settings.muted) play("toss"); });
    volume.addEventListener("input", () => { settings.volume = Number(volume.value); save(); });
    volume.addEventListener("change", () => play("toss"));
    show();
    foot.append(rig.el("span", { class: "sound-controls" }, mute, volume));
    document.addEventListener("keydown", (event) => {
      if (event.key !== "m" || document.querySelector("dialog[open]") || event.target.closest("input, textarea, select")) return;
      mute.click();
    });
  }

  // browsers start audio only after a gesture: any tap or key unlocks it
  for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, () => { if (!settings.muted) audio(); }, { once: true });
  document.addEventListener("rig:state", (event) => {
    const state = event.detail;
    for (const cue of cues(previous, state)) play(cue);
    previous = state;
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", controls); else controls();
  return { play, cues, log, settings };
})();
