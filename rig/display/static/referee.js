// The referee: the evidence of each turn (the dice as the camera saw them, with the reading drawn
// on, and a photo-finish strip of the tosses in µs) of a game whose renderer has some (games.js:
// evidence: true), any past turn from the history, the dice fairness test, and at game end the "Send to BG Stats" link and QR code. Listens to "rig:state"
// (common.js); owns its own elements (the review strip, the game-end export box, the Referee dialog).
"use strict";
const rigReferee = (function () {
  const { el } = rig;
  const SVG = "http://www.w3.org/2000/svg";
  const LETTER = { blue: "B", pink: "P", yellow: "Y", blank: "∅", gray: "G" };
  const INK = { blue: "var(--blue)", pink: "var(--pink)", yellow: "var(--yellow)", blank: "var(--violet)", gray: "var(--gray)" };
  let state = null;
  let reviewKey = null;
  let hiddenTurn = null;  // the turn whose review strip the players closed
  let exportKey = null;
  const view = { tab: "turns", game: null, turn: null };
  // the words the rig sends as data, in the page's language
  const STATUS = { playing: rig.t("in progress"), over: rig.t("over"), abandoned: rig.t("abandoned") };
  const VERDICT = { "looks loaded": rig.t("looks loaded"), suspicious: rig.t("suspicious"),
    "no sign of bias": rig.t("no sign of bias"), "too few rolls to tell": rig.t("too few rolls to tell") };

  // The strip lies in the page's flow, never over it (issue 26): at the foot of the column its game's
  // board marks (data-review-column), in the room left under what is there (the dice, what was
  // lasered, the counts). Where that room is too small for the photo finish at a readable size it is
  // one button that opens this turn's evidence in the Referee dialog.
  function columnOf() {
    return document.querySelector("main.board:not([hidden]) [data-review-column]");
  }
  const textPx = (node) => parseFloat(getComputedStyle(node || document.body).fontSize) || 14;

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) node.setAttribute(k, v);
    for (const child of children) if (child) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    return node;
  }

  function us(n) {
    if (n === null || n === undefined) return "";
    if (Math.abs(n) < 1000) return `${rig.num(n)} µs`;
    if (Math.abs(n) < 1e6) return `${rig.num(n / 1000, 1)} ms`;
    return `${rig.num(n / 1e6, 2)} s`;
  }

  // ------------------------------------------------------------ the photo-finish strip
  // Lanes in landing order, each toss a mark at its edge time; dead heats bracketed; the closest
  // finish also drawn on its own µs scale (a near-simultaneous pair is one line on the full scale).
  // ``width`` and ``font`` in CSS px draw it 1:1 (the strip: the text at the page's size); without, a
  // 640-wide drawing the dialog scales
  function photoFinish(tosses, tieWindow, { width, font } = {}) {
    const shown = tosses.filter((t) => t.t_us !== null && t.t_us !== undefined);
    if (!shown.length) return el("p", { class: "hint", text: rig.t("No toss in this turn.") });
    const f = font || 11;
    const names = Math.max(7, ...shown.map((t) => `${t.position || "-"} ${t.player}`.length));
    const W = width ? Math.max(width, 16 * f) : 640, left = Math.round(f * (0.62 * names + 1)), right = f, lane = 2 * f, top = 8, lead = f;
    const gapRoom = 9 * f;
    const t0 = Math.min(...shown.map((t) => t.t_us));
    const t1 = Math.max(...shown.map((t) => t.t_us));
    const span = Math.max(1, t1 - t0);
    const x = (t) => left + lead + ((t - t0) / span) * (W - left - lead - right);
    const counting = shown.filter((t) => t.counting);
    let closest = null;
    for (let i = 1; i < counting.length; i++) {
      const gap = counting[i].t_us - counting[i - 1].t_us;
      if (!closest || gap < closest.gap) closest = { a: counting[i - 1], b: counting[i], gap };
    }
    const zoom = closest && closest.gap < span * 0.03;
    const H = top + shown.length * lane + 2.4 * f + (zoom ? 5 * f : 0);
    const root = svg("svg", { class: "photo-finish", viewBox: `0 0 ${W} ${H}`, role: "img",
      width: width ? W : null, height: width ? H : null, style: `--pf-font: ${f}px`,
      "aria-label": rig.t("photo finish: the tosses on a time line") });
    root.append(svg("line", { x1: left + lead, y1: top, x2: left + lead, y2: top + shown.length * lane, class: "pf-start" }));
    shown.forEach((t, i) => {
      const y = top + i * lane + lane / 2;
      const card = t.card || "none";
      root.append(
        svg("text", { x: left - 6, y: y + 0.35 * f, "text-anchor": "end", class: `pf-name ${t.counting ? "" : "void"}` },
          `${t.counting ? t.position + " " : "– "}${t.player}`),
        svg("line", { x1: left, y1: y, x2: x(t.t_us), y2: y, class: `pf-track ${t.dead_heat ? "heat" : ""}` }),
        svg("circle", { cx: x(t.t_us), cy: y, r: 0.75 * f, class: `pf-mark card-${card}`, style: t.card ? `fill: ${INK[t.card]}` : null }),
        svg("text", { x: x(t.t_us), y: y + 0.35 * f, "text-anchor": "middle", class: "pf-letter" }, t.card ? LETTER[t.card] : "?"),
        svg("text", { x: Math.min(x(t.t_us) + f, W - gapRoom), y: y + 0.35 * f, class: "pf-gap" },
          t.dead_heat ? rig.t("dead heat (Δ {gap})", { gap: us(t.margin_us) }) : (t.margin_us !== null && t.margin_us !== undefined ? `+${us(t.margin_us)}` : "")),
      );
    });
    const axisY = top + shown.length * lane + 1.3 * f;
    root.append(svg("text", { x: left + lead, y: axisY, "text-anchor": "middle", class: "pf-axis" }, "0"),
      svg("text", { x: W - right, y: axisY, "text-anchor": "end", class: "pf-axis" }, `${us(span)}${tieWindow ? ` · ${rig.t("tie window {gap}", { gap: us(tieWindow) })}` : ""}`));
    if (zoom) {
      const zy = axisY + 0.6 * f, pad = Math.max(closest.gap, tieWindow || 0, 2);
      const z0 = closest.a.t_us - pad, z1 = closest.b.t_us + pad;
      const zx = (t) => left + ((t - z0) / (z1 - z0)) * (W - left - right);
      root.append(
        svg("text", { x: left - 6, y: zy + 1.3 * f, "text-anchor": "end", class: "pf-name" }, rig.t("closest")),
        svg("rect", { x: left, y: zy, width: W - left - right, height: 2 * f, class: "pf-zoom" }),
        ...(tieWindow ? [svg("rect", { x: zx(closest.a.t_us), y: zy, width: Math.max(1, zx(closest.a.t_us + tieWindow) - zx(closest.a.t_us)), height: 2 * f, class: "pf-window" })] : []),
        svg("line", { x1: zx(closest.a.t_us), x2: zx(closest.a.t_us), y1: zy, y2: zy + 2 * f, class: "pf-cut" }),
        svg("line", { x1: zx(closest.b.t_us), x2: zx(closest.b.t_us), y1: zy, y2: zy + 2 * f, class: "pf-cut b" }),
        svg("text", { x: left + 4, y: zy + 3.3 * f, class: "pf-axis" },
          `${closest.a.player} → ${closest.b.player}: Δ ${us(closest.gap)}${closest.b.dead_heat ? ` — ${rig.t("dead heat")}` : ""} (${rig.t("scale {gap}", { gap: us(z1 - z0) })})`),
      );
    }
    return root;
  }

  function rollImages(turn, { limit } = {}) {
    const rolls = (turn.rolls || []).filter((r) => r.overlay);
    const shown = limit ? rolls.slice(-limit) : rolls;
    if (!shown.length) return el("p", { class: "hint", text: rig.t("No camera frame kept for this turn.") });
    return el("div", { class: "shots" }, shown.map((r) => {
      // camera frames are private: another device fetches them with its PIN (rig.imageURL)
      const img = el("img", { alt: rig.t("roll {n} as the camera saw it", { n: r.roll }) });
      rig.imageURL(r.overlay).then((url) => { img.src = url; }, () => { img.alt = rig.t("frame shown on the rig's display or with the PIN"); });
      return el("figure", { class: "shot" }, img, el("figcaption", { text: rig.t("roll {n}: {dice}", { n: r.roll, dice: r.dice.join(", ") || rig.t("no dice") }) }));
    }));
  }

  function turnSummary(turn) {
    const score = turn.score;
    return el("div", { class: "turn-facts" },
      el("div", { text: rig.t("Dice: {dice}", { dice: turn.dice.join(", ") || "—" })
        + (turn.lasered && turn.lasered.length ? ` · ${rig.t("lasered: {colours}", { colours: turn.lasered.join(", ") })}` : "")
        + (turn.corrected_dice.length ? ` · ${rig.nt("{n} corrected by hand", "{n} corrected by hand", turn.corrected_dice.length)}` : "") }),
      (turn.dead_heats || []).map((h) => el("div", { class: "heat-text", text: rig.t(h.text) })),
      score ? el("div", { text: `${rig.t("{roller} copies {player}", { roller: turn.roller, player: score.copy })} · ${Object.entries(score.points).map(([p, n]) => `${p} +${n}`).join(", ")}` }) : null);
  }

  // ------------------------------------------------------------ the review strip (current turn)
  async function renderReview(s) {
    const box = document.getElementById("referee-review");
    if (!box) return;
    const turn = s && s.turn;
    const turnKey = s && s.game && turn ? `${s.game.id}/${turn.number}` : null;
    const column = columnOf();
    const show = Boolean(s && s.game && rigGames.get(s.game.game).evidence && turn && turn.phase === "review"
      && hiddenTurn !== turnKey && column);
    if (!show) { box.hidden = true; box.replaceChildren(); reviewKey = null; document.body.classList.remove("referee-reviewing"); return; }
    // the last thing in the column: nothing below it moves (a phone: under the whole board)
    const home = window.matchMedia("(max-width: 640px)").matches ? document.getElementById("sim") : null;
    if (home && box.nextElementSibling !== home) home.before(box);
    else if (!home && box.parentElement !== column) column.append(box);
    const key = `${s.game.id}/${turn.number}/${s.version}/${window.innerWidth}x${window.innerHeight}`;
    if (key === reviewKey) return;
    reviewKey = key;
    let record = null;
    try { record = await rig.getJSON(`/api/turns?game=${s.game.id}`); } catch (err) { /* tried again below */ }
    if (key !== reviewKey) return;
    const current = record && record.turns.find((t) => t.number === turn.number);
    if (!current) {  // a busy rig did not answer, or its record is a step behind: ask again, never stay hidden
      reviewKey = null;
      setTimeout(() => { if (state === s) renderReview(s); }, 500);
      return;
    }
    // everything is measured and drawn in this one task: the strip appears at its final size
    box.hidden = false;
    box.classList.remove("folded");
    document.body.classList.add("referee-reviewing");
    const font = textPx(box);
    const title = el("div", { class: "review-title" }, rig.t("Turn {number}: the evidence", { number: turn.number }),
      el("button", { id: "btn-review-hide", title: rig.t("hide the evidence of this turn"), text: rig.t("hide ✕"),
        onclick: () => { hiddenTurn = turnKey; renderReview(state); } }));
    box.replaceChildren(title);
    const width = box.clientWidth - 2 * parseFloat(getComputedStyle(box).paddingLeft || "0");
    const finish = photoFinish(current.tosses, record.tie_window_us, { width, font });
    box.append(
      el("div", { class: "review-finish" }, finish,
        el("button", { class: "link", text: rig.t("all rolls and past turns…"), onclick: () => open("turns", s.game.id, turn.number) })),
      el("div", { class: "review-shot" }, rollImages(current, { limit: 1 })));
    const fits = box.scrollHeight <= box.clientHeight + 1 && finish.getBoundingClientRect().bottom <= box.getBoundingClientRect().bottom;
    if (!fits) {  // no room for it at a readable size: one button that opens it in the Referee dialog
      box.classList.add("folded");
      box.replaceChildren(el("button", { id: "btn-review-show", title: rig.t("the camera frames and the photo finish of this turn"),
        text: rig.t("Evidence of this turn ▸"), onclick: () => open("turns", s.game.id, turn.number) }));
    }
  }

  // ------------------------------------------------------------ game end: BG Stats
  async function renderExport(s) {
    const box = document.getElementById("referee-export");
    if (!box) return;
    const over = Boolean(s && s.game && s.winner);
    box.hidden = !over;
    if (over && rig.placeBox) rig.placeBox(box);
    if (!over) { exportKey = null; return; }
    const key = `${s.game.id}/${s.version}`;
    if (key === exportKey) return;
    exportKey = key;
    box.replaceChildren(exportPanel(s.game.id, { compact: true }));
  }

  function exportPanel(gameId, { compact } = {}) {
    const panel = el("div", { class: "export-panel" });
    rig.getJSON(`/api/export/bgstats?game=${gameId}`).then((body) => {
      panel.replaceChildren(
        el("a", { class: "bgstats-link", id: compact ? "bgstats-link" : null, href: body.url, text: rig.t("Send to BG Stats") }),
        el("img", { class: "bgstats-qr", src: `/api/export/bgstats.svg?game=${gameId}&v=${encodeURIComponent(body.play.playDate)}`,
          alt: rig.t("QR code: scan with a phone that has BG Stats to import this game") }),
        el("div", { class: "hint", text: compact ? rig.t("Scan with BG Stats on a phone, or tap the link on it.") :
          `${body.play.players.map((p) => `${p.name} ${p.score}`).join(", ")} — ${body.status}` }));
    }).catch(() => panel.replaceChildren(el("p", { class: "hint", text: rig.t("No export for this game.") })));
    return panel;
  }

  // ------------------------------------------------------------ the Referee dialog
  function dialog() {
    let dlg = document.getElementById("dlg-referee");
    if (dlg) return dlg;
    dlg = el("dialog", { id: "dlg-referee", class: "referee" },
      el("form", { method: "dialog" },
        el("div", { class: "ref-tabs", role: "tablist" },
          [["turns", rig.t("Turns & evidence")], ["dice", rig.t("Dice fairness")], ["export", rig.t("Export")]].map(([tab, text]) =>
            el("button", { type: "button", role: "tab", "data-tab": tab, text, onclick: () => { view.tab = tab; renderDialog(); } })),
          el("button", { value: "close", class: "ref-close", text: rig.t("Close") })),
        el("div", { id: "ref-body", class: "ref-body" })));
    document.body.append(dlg);
    return dlg;
  }

  async function open(tab, game, turn) {
    view.tab = tab || "turns";
    view.game = game ?? (state && state.game ? state.game.id : null);
    view.turn = turn ?? null;
    const dlg = dialog();
    if (!dlg.open) dlg.showModal();
    await renderDialog();
  }

  async function gamePicker() {
    const history = await rig.getJSON("/api/history");
    const games = history.games.filter((g) => rigGames.get(g.game).evidence || view.tab === "export");
    if (view.game === null && games.length) view.game = games[0].id;
    const select = el("select", { id: "ref-game", "aria-label": rig.t("game"), onchange: (e) => { view.game = Number(e.target.value); view.turn = null; renderDialog(); } },
      games.map((g) => el("option", { value: g.id, selected: g.id === view.game ? true : null,
        text: `#${g.number} ${g.started_at ? rig.date(g.started_at, true) : ""} — ${g.players.join(", ")} (${STATUS[g.status] || g.status})` })));
    return el("label", { class: "ref-pick" }, rig.t("Game"), " ", select);
  }

  // Only the newest render may fill the dialog: a tab chosen while an older one still loads must not
  // be replaced by the older one when its answer comes in (issue 28: Export, then Turns came back)
  let renderSeq = 0;
  async function renderDialog() {
    const seq = ++renderSeq;
    const body = document.getElementById("ref-body");
    const show = (...nodes) => { if (seq === renderSeq) body.replaceChildren(...nodes); };
    for (const b of document.querySelectorAll("#dlg-referee [data-tab]")) b.setAttribute("aria-selected", String(b.dataset.tab === view.tab));
    body.replaceChildren(el("p", { class: "hint", text: rig.t("loading…") }));
    try {
      if (view.tab === "dice") show(await diceView());
      else if (view.tab === "export") show(await gamePicker(), exportView());
      else {
        const picker = await gamePicker();
        show(picker, await turnsView());
      }
    } catch (err) {
      show(el("p", { class: "error", text: rig.t("cannot load: {why}", { why: err.message }) }));
    }
  }

  async function turnsView() {
    if (view.game === null) return el("p", { class: "hint", text: rig.t("No game with turn evidence yet.") });
    const record = await rig.getJSON(`/api/turns?game=${view.game}`);
    if (!record.turns.length) return el("p", { class: "hint", text: rig.t("No turn in this game yet.") });
    // without a turn asked for: the latest turn with something to see (not the next, still empty one)
    const played = (t) => t.scored || (t.rolls || []).length || (t.tosses || []).length || (t.dice || []).length;
    const turn = record.turns.find((t) => t.number === view.turn)
      || [...record.turns].reverse().find(played) || record.turns[record.turns.length - 1];
    view.turn = turn.number;
    const picker = el("div", { class: "ref-turns" }, record.turns.map((t) => el("button", {
      type: "button", class: t.number === turn.number ? "selected" : "", "data-turn": t.number,
      text: `${t.number}: ${t.roller}${t.scored ? "" : ` (${rig.t("now")})`}${t.dead_heats.length ? " ⚑" : ""}`,
      onclick: () => { view.turn = t.number; renderDialog(); } })));
    return el("div", { class: "ref-turn" }, picker,
      el("h4", { text: rig.t("Turn {number} — {name} rolled", { number: turn.number, name: turn.roller }) + (turn.scored ? "" : ` (${rig.t("under way")})`) }),
      rollImages(turn),
      el("h4", { text: rig.t("Photo finish") }),
      photoFinish(turn.tosses, record.tie_window_us, { width: document.getElementById("ref-body").clientWidth - 24,
        font: textPx(document.getElementById("ref-body")) }),
      turnSummary(turn),
      record.evidence ? null : el("p", { class: "hint", text: rig.t("Camera frames are not kept on this rig ([evidence] keep = false).") }));
  }

  async function diceView() {
    const d = await rig.getJSON("/api/dice");
    const max = Math.max(1, ...Object.keys(d.counts).map((f) => Math.max(d.counts[f], d.expected[f])));
    const rows = Object.keys(d.counts).map((face) => {
      const colours = face === "blank" ? ["blank"] : face.split("+");
      return el("tr", { "data-face": face },
        el("td", { class: "face" }, colours.map((c) => el("span", { class: `chip-dot c-${c}`, text: LETTER[c] })), ` ${face}`),
        el("td", { class: "num", text: d.counts[face] }),
        el("td", { class: "num dim", text: rig.num(d.expected[face], 1) }),
        el("td", { class: "bar" },
          el("span", { class: "seen", style: `width: ${(100 * d.counts[face]) / max}%` }),
          el("span", { class: "expect", style: `left: ${(100 * d.expected[face]) / max}%` })));
    });
    const test = (title, t) => el("div", { class: `chi ${t.verdict.replace(/ /g, "-")}` },
      el("b", { text: title }), ` χ² = ${rig.num(t.chi2, 2)}, ${rig.t("{n} dof", { n: t.dof })}, p = ${t.p_value < 0.001 ? t.p_value.toExponential(1) : rig.num(t.p_value, 3)} → `,
      el("b", { text: VERDICT[t.verdict] || t.verdict }));
    return el("div", { class: "dice-fair" },
      el("p", { id: "dice-verdict", class: `verdict ${d.verdict.replace(/ /g, "-")}`, text: rig.t("{n} dice over every scored turn: {verdict}", { n: d.rolls, verdict: VERDICT[d.verdict] || d.verdict }) }),
      el("table", { class: "dice-table" },
        el("thead", {}, el("tr", {}, el("th", { text: rig.t("face") }), el("th", { text: rig.t("seen") }), el("th", { text: rig.t("expected") }), el("th", { text: "" }))),
        el("tbody", {}, rows)),
      test(rig.t("All faces (blue, pink, yellow, blank ×2, combo):"), d.faces),
      test(rig.t("Combo faces, one per die kind:"), d.combos),
      el("p", { class: "hint", text: rig.t("Pearson's χ² test; p < 0.01 looks loaded, p < 0.05 is worth watching.") }));
  }

  function exportView() {
    return el("div", { class: "ref-export" },
      view.game !== null ? exportPanel(view.game) : el("p", { class: "hint", text: rig.t("No game yet.") }),
      el("p", {}, rig.t("All games:"), " ", el("a", { href: "/api/export/history.csv", download: "rig-history.csv", text: "CSV" }), " · ",
        el("a", { href: "/api/export/history.json", download: "rig-history.json", text: rig.t("JSON (with turns and µs toss times)") })));
  }

  // ------------------------------------------------------------ wiring
  function setup() {
    document.body.append(el("section", { id: "referee-review", class: "referee-review", hidden: true, "aria-label": rig.t("evidence of this turn") }),
      el("section", { id: "referee-export", class: "referee-export", hidden: true, "aria-label": rig.t("send this game to BG Stats") }));
    // the page's state can come before this script ran or the document was ready (a script still loading on a
    // busy rig): a game already over has no later state to show its export by
    state = state || rig.lastState || null;
    if (state) { renderReview(state); renderExport(state); }
    const foot = document.querySelector("footer.foot");
    const button = el("button", { id: "btn-referee", title: rig.t("evidence of every turn, dice fairness, export (key e)"), text: rig.t("Referee"), onclick: () => open() });
    if (foot) foot.insertBefore(button, document.getElementById("link-calibrate") || null);
    const history = document.getElementById("dlg-history");  // past games: open their turns' evidence from there too
    if (history && history.querySelector("form")) {
      history.querySelector("form").append(el("button", { type: "button", id: "btn-history-evidence",
        text: rig.t("Turns & evidence…"), onclick: () => { history.close(); open("turns"); } }));
    }
    document.addEventListener("keydown", (event) => {
      if (event.key !== "e" || document.querySelector("dialog[open]") || event.target.closest("input, textarea, select")) return;
      open();
    });
  }

  document.addEventListener("rig:state", (event) => {
    state = event.detail;
    renderReview(state);
    renderExport(state);
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup); else setup();
  return { open, photoFinish };
})();
