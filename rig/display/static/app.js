// The scoreboard: renders GET /api/state (pushed over /api/events), corrections, new game,
// history, and in simulation mode the controls and their keys.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const { el } = rig;
  const ANSWERS = { yes: rig.t("yes"), no: rig.t("no") };  // a question notice's buttons
  const NOTICE_TTL_MS = 12000;  // a refusal shows this long, and only in the turn it happened in
  let state = null;
  let noticeSeen = new Map();   // refused notice seq -> when this page first showed it
  let noticeFloor = 0;          // refusals up to this seq belong to an earlier turn
  let turnKey = null;
  let noticesOpen = false;
  let choosingCard = null;      // the card question ("key:text") whose cards are shown for "no — it was…"
  let rigStatus = { notices: [] };
  let simCamera = true;
  const boards = {};            // game name → its board: {board, main, side}

  // ---------------------------------------------------------------- rendering
  // the game's renderer (rigGames, each game's page.js); without a game the first game's
  const rendererOf = (s) => rigGames.get(s && s.game ? s.game.game : firstGame());

  // the game's board: its own (a renderer's board()) or the page's two panels
  function boardOf(name, renderer) {
    if (!boards[name]) {
      if (renderer.board) {
        const board = renderer.board();
        $("game-board").before(board);
        boards[name] = { board, main: board, side: null };
      } else {
        boards[name] = { board: $("game-board"), main: $("gb-main"), side: $("gb-side") };
      }
    }
    return boards[name];
  }

  function renderHeader(s) {
    const game = s.game;
    const head = rendererOf(s).header(s);
    $("game-name").textContent = game ? rigGames.title(game.game) : "rig";
    $("round").textContent = head.round || "";
    $("round").classList.toggle("tie", Boolean(head.tie));
    $("turn-banner").textContent = head.banner;
    $("rolls").replaceChildren(...(head.rolls || []));
    $("rolls").title = head.rollsTitle || "";
    document.body.dataset.players = game ? game.players.length : 0;
    $("phase").textContent = head.phase;
    $("phase").title = head.phase || "";  // the whole sentence, should the box cut it
  }

  const cut = (node) => node.scrollWidth > node.clientWidth + 1;  // its line ends in "…"

  // a question notice's buttons: yes and no; a question about a card also "no — it was…", which shows the cards
  // it may have been in their place (one tap books that card), and its "no" says "no card"; a card the camera
  // cannot read ("which card was just laid?"): "entered" (by hand: yes), "no card", "it was…"
  function answerButtons(n) {
    const answer = (body) => rig.post(n.ask, Object.assign({ key: n.key }, body)).then(() => { choosingCard = null; pollRig(); });
    const cards = n.cards || [];
    const label = (a) => (cards.length && a === "no" ? rig.t("no card") : n.unread && a === "yes" ? rig.t("entered") : ANSWERS[a] || a);
    if (cards.length && choosingCard === `${n.key}:${n.text}`) {
      return [el("span", { class: "notice-was", text: rig.t("it was:") }),
        ...cards.map((card) => el("button", { class: `notice-action c-${card}`, "data-was": card, text: rig.t(card),
          onclick: () => answer({ answer: "no", was: card }) })),
        el("button", { class: "notice-action", "data-answer": "back", title: rig.t("back"), text: "‹",
          onclick: () => { choosingCard = null; renderNotices(state); } })];
    }
    return [...n.answers.map((a) => el("button", { class: "notice-action", "data-answer": a,
      text: label(a), onclick: () => answer({ answer: a }) })),
    ...(cards.length ? [el("button", { class: "notice-action", "data-answer": "was", text: n.unread ? rig.t("it was…") : rig.t("no, it was…"),
      onclick: () => { choosingCard = `${n.key}:${n.text}`; renderNotices(state); } })] : [])];
  }

  function renderNotices(s) {
    const items = [];
    // a question first: its answer buttons are never behind "more"
    const rigNotices = [...(rigStatus.notices || [])].sort((a, b) => Boolean(b.ask) - Boolean(a.ask));
    for (const n of rigNotices) {
      const acts = Boolean(n.ask || n.href);
      items.push(el("div", { class: `notice ${n.kind || ""}${acts ? " acts" : ""}${n.ask ? " asks" : ""}`, "data-key": n.key },
        acts ? el("span", { class: "notice-text", text: rig.t(n.text) }) : rig.t(n.text),
        n.href ? el("a", { class: "notice-action", href: n.href, text: n.action ? rig.t(n.action) : rig.t("Fix") }) : null,
        ...(n.ask ? answerButtons(n) : [])));
    }
    const turn = s && s.turn;
    const game = s && s.game;
    // a new turn (or game) starts with a clean slate: refusals of earlier turns are not this turn's business
    const key = game ? `${game.id}:${turn ? turn.number : "end"}` : "none";
    const recent = (s && s.notices) || [];
    if (key !== turnKey) {
      // (on the page's first state too: refusals from before it was opened are history)
      noticeFloor = Math.max(noticeFloor, ...recent.map((n) => n.seq || 0));
      turnKey = key;
      noticesOpen = false;
    }
    const now = Date.now();
    const fresh = [];
    if (!(s && s.outcome)) {
      for (const n of recent) {
        if ((n.seq || 0) <= noticeFloor) continue;
        if (!noticeSeen.has(n.seq)) noticeSeen.set(n.seq, now);
        if (now - noticeSeen.get(n.seq) < NOTICE_TTL_MS) fresh.push(n);
      }
    }
    // the newest refusal first: it answers what someone just did
    for (const n of fresh.reverse()) items.push(el("div", { class: "notice bad refused", "data-seq": n.seq, text: rig.t("Refused: {reason}", { reason: rig.t(n.reason || n.text || JSON.stringify(n)) }) }));
    if (s) items.push(...((rendererOf(s).notices || (() => []))(s)));
    const box = $("notices");
    box.classList.toggle("open", noticesOpen);
    box.classList.toggle("several", items.length > 1);
    box.replaceChildren(...items);
    const toggle = () => { noticesOpen = !noticesOpen; renderNotices(state); };
    if (items.length > 1) {
      box.append(el("button", { class: "more", id: "notices-more", text: noticesOpen ? rig.t("less") : rig.t("+{n} more", { n: items.length - 1 }),
        onclick: toggle }));
    } else if (items.length === 1 && (noticesOpen || cut(items[0].querySelector(".notice-text") || items[0]))) {
      // one notice cut with "…": a button opens it whole (issue 26)
      box.classList.add("several");
      box.append(el("button", { class: "more", id: "notices-more", text: noticesOpen ? rig.t("less") : rig.t("more"), onclick: toggle }));
    }
    // the first notice's buttons end where "more" begins, however long its word in the page's language
    const more = $("notices-more");
    box.style.setProperty("--more-w", `${more ? more.offsetWidth : 0}px`);
  }

  // Where a box of the game's end goes (issue 26: it covers nothing): on a phone in the page's flow
  // (style.css orders it), else last in the board's column marked data-winner-column (e.g. the
  // tosses), else in the board's first panel; the winner before BG Stats. Last: nothing below moves.
  const PHONE = window.matchMedia("(max-width: 640px)");
  function placeBox(box) {
    let home = document.body;
    if (!PHONE.matches) {
      const board = document.querySelector("main.board:not([hidden])");
      home = (board && (board.querySelector("[data-winner-column]") || board.querySelector(".panel"))) || document.body;
    }
    box.classList.toggle("in-panel", home !== document.body);
    const exportBox = $("referee-export");
    if (home === document.body) {
      if (box.parentElement === home && (box.nextElementSibling === $("sim") || box.nextElementSibling === exportBox)) return;
      $("sim").before(box);
    } else {
      if (box.parentElement === home) return;
      home.append(box);
    }
    if (box.id === "winner" && exportBox && exportBox.parentElement === box.parentElement) exportBox.before(box);
  }
  rig.placeBox = placeBox;

  function renderWinner(s) {
    const box = $("winner");
    if (s.outcome && s.game && rendererOf(s).winner !== false) {
      placeBox(box);
      const totals = s.totals || {};
      const ranking = [...s.game.players].sort((a, b) => (totals[b] || 0) - (totals[a] || 0));
      box.replaceChildren(s.winner ? rig.t("★ {name} wins! ★", { name: s.winner }) : rig.t("Game over"),
        el("small", { text: ranking.map((p) => `${p} ${totals[p] || 0}`).join(" · ") }),
        el("small", {}, el("button", { text: rig.t("New game"), onclick: () => openNewGame() })));
      box.hidden = false;
    } else {
      box.hidden = true;
    }
  }

  // simulated presses reach the rig one after another, in the order they were made (as real buttons
  // would: a busy server must not let a later press overtake an earlier one)
  let pressQueue = Promise.resolve();
  function simPress(body) {
    pressQueue = pressQueue.then(() => rig.post("/api/sim/press", body)).catch(() => {});
    return pressQueue;
  }

  function renderSim(s) {
    const bar = $("sim");
    bar.hidden = !rig.info.sim;
    if (!rig.info.sim) return;
    const players = s.game ? s.game.players : [];
    const owed = s.turn && s.turn.still_to_toss;  // a game whose players toss: who has tossed this turn
    $("sim-press").replaceChildren(...players.map((name, i) => el("button", {
      "data-press": name, title: rig.t("key {key}", { key: i + 1 }), class: owed && s.turn.started && !owed.includes(name) && name !== s.turn.roller ? "tossed" : "",
      text: `${i + 1} ${name}`, onclick: () => simPress({ player: name }) })));
    $("sim-camera").textContent = simCamera ? rig.t("drop camera") : rig.t("restore camera");
    const game = gameOf(s);
    const cards = Boolean(LAYS_CARDS[game]);  // the cards, the copy's hold and the knocked die
    $("sim-cards").hidden = !cards;
    $("sim-knock").hidden = !cards;
    $("sim-hold").hidden = !cards;
    const parts = Boolean(IN_PARTS[game]);  // rolls of 1, 2, 3 dice and the rest; else one throw
    document.querySelectorAll("#sim [data-roll]").forEach((b) => { b.hidden = !parts && b.dataset.roll !== "1"; });
    const one = document.querySelector('#sim [data-roll="1"]');
    if (one) one.textContent = parts ? rig.t("roll 1") : rig.t("throw");
  }

  let shownGame = null;
  let starting = null;  // { game, from: the game id shown before } while a Start waits for the rig's answer
  function render(s) {
    // a new game starts clean: an error toast of the last one does not stay over it
    const gameId = s.game ? s.game.id : null;
    if (shownGame !== null && gameId !== shownGame && $("toasts")) $("toasts").replaceChildren();
    shownGame = gameId;
    // the game a Start asked for is shown: the form goes now, not when the answer comes (it may come later)
    if (starting && s.game && gameId !== starting.from && s.game.game === starting.game) $("dlg-new").close("start");
    state = s;
    $("btn-unlock").hidden = !rig.info.pin_required || Boolean(rig.unlocked);
    renderHeader(s);
    const name = s.game ? s.game.game : firstGame();
    const renderer = rendererOf(s);
    const shown = boardOf(name, renderer);
    for (const b of new Set([$("game-board"), ...Object.values(boards).map((x) => x.board)])) b.hidden = b !== shown.board;
    document.body.dataset.game = s.game ? s.game.game : "none";
    if (s.game || renderer.board) renderer.render(s, shown);
    renderNotices(s);
    renderWinner(s);
    renderSim(s);
    renderKeys(s);
    if (renderer.layout) renderer.layout(s);  // last: the notices and the simulation bar have their heights now
    document.body.dataset.version = s.version;
    document.body.dataset.drawn = "";
    document.body.dataset.phase = s.turn ? s.turn.phase : (s.outcome ? "over" : "none");
  }

  // ---------------------------------------------------------------- actions
  // a game under way is abandoned by a new one: ask first (it stays in History as abandoned)
  function runningGame() {
    const s = state;
    if (!s || !s.game || s.outcome || s.game.status !== "playing") return null;
    const turn = s.turn;
    const played = s.game.turns_played || (s.turns ? s.turns.length : 0);
    const started = Boolean(turn && (turn.started || turn.phase && !["waiting", "over"].includes(turn.phase)));
    if (!played && !started) return null;
    const name = rigGames.title(s.game.game);
    return rig.nt("{game} with {players} is under way ({n} turn played). Starting a new game ends it: it stays in History as abandoned.",
      "{game} with {players} is under way ({n} turns played). Starting a new game ends it: it stays in History as abandoned.",
      played, { game: name, players: s.game.players.join(", ") });
  }
  let confirmAbandon = false;
  function resetConfirm() {
    confirmAbandon = false;
    $("new-confirm").hidden = true;
    $("new-start").textContent = rig.t("Start");
  }

  function openNewGame() {
    const dlg = $("dlg-new");
    resetConfirm();
    const players = state && state.game ? state.game.players : (rig.info.players || []);
    $("new-players").value = players.join("\n");
    $("new-error").textContent = "";
    $("new-game").value = state && state.game ? state.game.game : firstGame();
    showGameOptions();
    dlg.showModal();
  }

  const PLAYER_HINTS = {};  // game name → the form's hint (from the registry, see fillGameMenu)
  function showGameOptions() {
    const game = $("new-game").value;
    for (const opts of document.querySelectorAll("#form-new .game-opts")) opts.hidden = opts.id !== `opts-${game}`;
    $("new-hint").textContent = PLAYER_HINTS[game] || "";
  }
  $("new-game").addEventListener("change", showGameOptions);

  $("form-new").addEventListener("submit", async (event) => {
    const submitter = event.submitter;
    if (!submitter || submitter.value !== "start") return;
    event.preventDefault();
    const running = runningGame();
    if (running && !confirmAbandon) {
      confirmAbandon = true;
      $("new-confirm").textContent = running;
      $("new-confirm").hidden = false;
      $("new-start").textContent = rig.t("Abandon it and start");
      return;
    }
    const players = $("new-players").value.split(/[\n,]/).map((p) => p.trim()).filter(Boolean);
    const game = $("new-game").value;
    const form = rigGames.get(game).options;
    const options = form ? form.read() : {};
    starting = { game, from: shownGame };
    const result = await rig.post("/api/games", { game, players, options }).finally(() => { starting = null; });
    if (result.ok) $("dlg-new").close("start");
    else { $("new-error").textContent = result.body.error || rig.t("refused"); resetConfirm(); }
  });

  async function openHistory() {
    const box = $("history");
    box.replaceChildren(el("p", { class: "hint", text: rig.t("loading…") }));
    $("dlg-history").showModal();
    let data;
    try { data = await rig.getJSON("/api/history"); } catch (err) { box.replaceChildren(el("p", { class: "error", text: String(err) })); return; }
    const games = data.games || [];
    if (!games.length) { box.replaceChildren(el("p", { class: "hint", text: rig.t("No games yet.") })); return; }
    const rows = games.map((g) => {
      const totals = g.totals || {};
      const names = Object.keys(totals).sort((a, b) => totals[b] - totals[a]);
      const when = g.started_at ? rig.date(g.started_at, true) : "";
      const title = g.game ? rigGames.title(g.game) : "";
      const result = g.winner ? rig.t("{name} won", { name: g.winner }) : g.status === "playing" ? rig.t("in progress")
        : g.status === "abandoned" ? rig.t("abandoned") : g.status === "over" ? rig.t("over") : (g.status || rig.t("unfinished"));
      return el("div", { class: `hist-game ${g.status || ""}`, "data-number": g.number, "data-status": g.status },
        el("strong", { text: rig.t("Game {number} · {title}", { number: g.number ?? g.id, title }) }), " ",
        el("span", { class: `hist-result ${g.status || ""}`, text: `— ${result}${g.turns ? `, ${rig.nt("{n} turn", "{n} turns", g.turns)}` : ""}` }),
        when ? el("span", { class: "hint", text: ` · ${when}` }) : null,
        el("div", { class: "hint", text: names.map((n) => `${n} ${totals[n]}`).join(" · ") }));
    });
    // per kind of game: one game's points and another's are not added together
    const players = data.players || [];
    const kindOf = (p) => p.game || rig.info.default_game;  // older logs name no game
    const kinds = [...new Set(players.map(kindOf))];
    const tables = kinds.map((kind) => [
      el("h3", { text: rig.t("{game}: players", { game: rigGames.title(kind) }) }),
      el("table", { class: "hist-players", "data-game": kind },
        el("tr", {}, [rig.t("player"), rig.t("games"), rig.t("wins"), rig.t("points"), rig.t("best")].map((h) => el("th", { text: h }))),
        players.filter((p) => kindOf(p) === kind).map((p) => el("tr", {},
          [p.name, p.games, p.wins, p.points, p.best].map((v) => el("td", { text: v }))))),
    ]).flat();
    box.replaceChildren(...rows, ...tables);
  }

  rig.onLocked = () => new Promise((resolve) => {
    const dlg = $("dlg-pin");
    $("pin-input").value = "";
    $("pin-error").textContent = "";
    dlg.onclose = () => resolve(dlg.returnValue === "ok" ? $("pin-input").value.trim() : null);
    dlg.showModal();
  });

  $("btn-new").onclick = openNewGame;
  $("btn-undo").onclick = () => rig.post("/api/corrections", { what: "undo" });
  $("btn-history").onclick = openHistory;
  $("btn-unlock").onclick = async () => {
    const pin = await rig.onLocked();
    if (!pin) return;
    rig.setPin(pin);
    const result = await rig.post("/api/pin", {}, true);
    if (result.ok) { rig.toast(rig.t("Unlocked: this device may change the game")); $("btn-unlock").hidden = true; }
    else rig.setPin("");
  };

  // ---------------------------------------------------------------- simulation
  // a game that rolls its dice a few at a time: the rest of them, or two (what is left at the third
  // roll); any other game throws all its dice at once (the simulator's one throw)
  function diceLeft() {
    const game = gameOf(state);
    if (!IN_PARTS[game]) return null;
    return (DICE[game] || 1) - (state && state.turn ? state.turn.dice.length : 0);
  }
  function rollRest() {
    const left = diceLeft();
    return left === null ? 1 : Math.max(1, left);
  }
  function rollDefault() {
    const left = diceLeft();
    if (left === null) return 1;
    const rolls = state && state.turn ? state.turn.rolls : 0;
    if (rolls >= 2) return Math.max(1, left);
    return Math.min(2, Math.max(1, left - (2 - rolls)));
  }
  const sim = {
    roll: (n) => rig.post("/api/sim/roll", { dice: n }),
    card: (card) => rig.post("/api/sim/card", { card }),
    knock: () => rig.post("/api/sim/knock", {}),
    press: (i) => { const p = state && state.game && state.game.players[i]; if (p) simPress({ player: p }); },
    hold: () => {
      const t = state && state.turn;
      if (t) simPress({ player: t.roller, hold_ms: (rig.info.hold_confirm_s || 1) * 1000 + 200 });
    },
    camera: async () => { const r = await rig.post("/api/sim/camera", { connected: !simCamera }); if (r.ok) { simCamera = !simCamera; renderSim(state); } },
  };
  document.querySelectorAll("#sim [data-roll]").forEach((b) => {
    b.onclick = () => sim.roll(b.dataset.roll === "rest" ? rollRest() : Number(b.dataset.roll));
  });
  document.querySelectorAll("#sim [data-card]").forEach((b) => { b.onclick = () => sim.card(b.dataset.card); });
  $("sim-hold").onclick = sim.hold;
  $("sim-knock").onclick = sim.knock;
  $("sim-camera").onclick = sim.camera;

  // The simulation's keys of each game: the line under the board and the ? list
  const COMMON_KEYS = [["c", rig.t("drop / restore the camera")], ["n", rig.t("new game")], ["?", rig.t("this list")]];
  // game name → its keys, key line and whether it lays cards: from the registry (fillGameMenu)
  const KEYS = {};
  const KEY_HINTS = {};
  const LAYS_CARDS = {};
  const IN_PARTS = {};
  const DICE = {};
  const CARD_KEYS = { b: "blue", p: "pink", y: "yellow", k: "blank", g: "gray" };
  const CARD_GAME_KEYS = ["h", "x", ...Object.keys(CARD_KEYS)];  // the cards, the copy and the violations
  const firstGame = () => ((rig.info.games || [])[0] || {}).name;
  const gameOf = (s) => (s && s.game && KEYS[s.game.game] ? s.game.game : firstGame());
  function renderKeys(s) {
    const game = gameOf(s);
    const line = $("keys");
    line.textContent = rig.info.sim ? KEY_HINTS[game] || "" : "";
    if (game) line.dataset.game = game;
    const rows = rig.info.sim ? [...(KEYS[game] || []), ...COMMON_KEYS] : [["n", rig.t("new game")], ["?", rig.t("this list")]];
    $("help-keys").replaceChildren(el("table", {}, rows.map(([k, v]) => el("tr", {}, el("td", {}, el("kbd", { text: k })), el("td", { text: v })))));
  }
  document.addEventListener("keydown", (event) => {
    if (document.querySelector("dialog[open]") || event.target.closest("input, textarea, select")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key;
    if (key === "n") { openNewGame(); return; }
    if (key === "?") { $("dlg-help").showModal(); return; }
    if (!rig.info.sim) return;
    if (CARD_GAME_KEYS.includes(key) && !LAYS_CARDS[gameOf(state)]) return;
    if (/^[1-8]$/.test(key)) sim.press(Number(key) - 1);
    else if (key === "h") sim.hold();
    else if (key === "r") sim.roll(rollDefault());
    else if (key === "a") sim.roll(rollRest());
    else if (CARD_KEYS[key]) sim.card(CARD_KEYS[key]);
    else if (key === "c") sim.camera();
    else if (key === "x") sim.knock();
    else return;
    event.preventDefault();
  });

  // ---------------------------------------------------------------- start
  async function pollRig() {
    try {
      rigStatus = await rig.getJSON("/api/rig");
      simCamera = !(rigStatus.camera && rigStatus.camera.connected === false);
      if (state) {
        renderNotices(state);
        renderSim(state);
        const renderer = rendererOf(state);
        if (renderer.layout) renderer.layout(state);
      }
    } catch (err) { /* the live indicator says it */ }
  }

  // The Game menu: one option per registered game (rig.registry), titled with its description;
  // below the players, the options of the game chosen (its renderer's fields)
  function fillGameMenu(games) {
    for (const g of games) {
      const form = rigGames.get(g.name).options;
      if (form) $("new-confirm").before(el("div", { class: "game-opts", id: `opts-${g.name}`, hidden: true }, form.fields()));
      IN_PARTS[g.name] = g.rolls_in_parts;
      DICE[g.name] = g.dice;
      KEYS[g.name] = g.keys;
      KEY_HINTS[g.name] = g.key_hint;
      LAYS_CARDS[g.name] = g.lays_cards;
      PLAYER_HINTS[g.name] = g.player_hint;
    }
    $("new-game").replaceChildren(...games.map((g) => el("option", { value: g.name, text: g.title, title: g.description })));
  }

  // the page shows once its first state is drawn (no shift at load), or at once when the live stream fails (it
  // says why); a timer only as the last resort: a loaded rig's first state can take seconds, and a page shown
  // before it moves everything when it comes (seen in a loaded run)
  const showAsItIs = () => { document.body.dataset.drawn = ""; };
  setTimeout(showAsItIs, 15000);
  rig.loadInfo().then(async (info) => {
    await rigGames.loadPages(info.games || []);  // each game's page.js and page.css, before the first state
    fillGameMenu(info.games || []);
    $("pin").textContent = info.pin ? rig.t("PIN {pin}", { pin: info.pin }) : "";
    $("btn-unlock").hidden = !info.pin_required;
    renderKeys(state);
    rig.live(render, (on) => { $("live").classList.toggle("on", on); if (!on) showAsItIs(); });
    pollRig();
    setInterval(pollRig, 1000);
  });
})();
