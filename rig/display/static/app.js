// The scoreboard: renders GET /api/state (pushed over /api/events), corrections, new game,
// history, and in simulation mode the controls and their keys.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const { el } = rig;
  const FACES = ["blue", "pink", "yellow", "blank", "pink+blue", "yellow+pink", "blue+yellow"];
  const CARDS = ["blue", "pink", "yellow", "blank", "gray"];
  const COLOUR = { blue: "var(--blue)", pink: "var(--pink)", yellow: "var(--yellow)" };
  const PHASES = {
    waiting: (t) => `${t.roller}: press to start`,
    rolling: () => "rolling",
    tossing: (t) => (t.still_to_toss.length ? `to toss: ${t.still_to_toss.join(", ")}` : "tossing"),
    copy: (t) => `${t.roller}: whom to copy?`,
    reveal: (t) => `turn over card ${t.cards_revealed + 1} of ${t.cards_expected}`,
    review: (t) => `${t.roller}: hold to finish the turn`,
    over: () => "game over",
  };
  // "1 card", "2 cards"; many: the irregular plural ("dice")
  const count = (n, one, many) => `${n} ${n === 1 ? one : (many || `${one}s`)}`;
  const NOTICE_TTL_MS = 12000;  // a refusal shows this long, and only in the turn it happened in
  let state = null;
  let noticeSeen = new Map();   // refused notice seq -> when this page first showed it
  let noticeFloor = 0;          // refusals up to this seq belong to an earlier turn
  let turnKey = null;
  let noticesOpen = false;
  let rigStatus = { notices: [] };
  let simCamera = true;

  // ---------------------------------------------------------------- rendering
  function frogStyle(colours) {
    if (!colours.length) return null;
    if (colours.length === 1) return `background: ${COLOUR[colours[0]]}`;
    const [a, b] = colours;
    return `background: linear-gradient(135deg, ${COLOUR[a]} 0 50%, ${COLOUR[b]} 50% 100%)`;
  }

  function faceColours(face) {
    return face === "blank" ? [] : face.split("+");
  }

  function renderDice(turn) {
    const dice = turn ? turn.dice : [];
    const tiles = [];
    for (let i = 0; i < 6; i++) {
      const die = dice[i];
      if (!die) { tiles.push(el("div", { class: "die empty", "aria-label": "no die yet" })); continue; }
      const lasers = (die.lasered || []).filter((c) => !die.colours.includes(c));
      tiles.push(el("button", {
        class: `die ${die.corrected ? "corrected" : ""} ${die.uncertain ? "uncertain" : ""}`,
        "data-index": i, "data-face": die.face, title: `die ${i + 1}: ${die.face}${lasers.length ? ` (+ lasered ${lasers.join(", ")})` : ""}`,
        onclick: () => fixDie(i, die.face),
      },
      die.colours.length ? el("span", { class: "frog", style: frogStyle(die.colours) }) : null,
      lasers.length ? el("span", { class: "lasers", title: `lasered: ${lasers.join(", ")}` }, lasers.map((c) => el("span", { class: "laser", style: `background: ${COLOUR[c]}; color: ${COLOUR[c]}` }))) : null,
      el("span", { class: "label", text: die.face.replace("+", "+\u200b") })));  // a combo may break after its +
    }
    $("dice").replaceChildren(...tiles);
    const box = $("lasered");
    box.replaceChildren();
    if (turn && turn.lasered && turn.lasered.length) {
      box.append("Lasered onto every die: ", ...turn.lasered.map((c) => el("span", { class: `tag c-${c}`, text: c })));
    } else if (turn && turn.dice.length === 6) {
      box.append(el("span", { class: "hint", text: "No colour missing: nothing lasered." }));
    }
    const counts = turn && turn.score && turn.score.counts;
    if (counts) {
      box.append(el("div", { class: "counts", text: Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(" · "),
        title: "dice showing each colour (lasered colours included)" }));
    }
  }

  function renderTosses(turn) {
    const list = $("tosses");
    const rows = [];
    const revealing = turn && turn.phase === "reveal" ? turn.cards_revealed + 1 : null;
    for (const toss of turn ? turn.tosses : []) {
      const counting = toss.counting;
      const card = toss.card;
      const points = toss.points;
      rows.push(el("li", { class: `toss ${counting ? "" : "void"} ${toss.dead_heat ? "heat" : ""}`, "data-player": toss.player,
        "data-current": counting && toss.position === revealing ? "true" : null, "data-swapped": toss.swapped ? "true" : null },
        el("span", { class: "order", text: counting ? toss.position : "–" }),
        el("button", { class: "who", title: "tap to fix who tossed, or to swap two tosses", text: toss.swapped ? `${toss.player} ⇅` : toss.player,
          onclick: () => fixToss(toss.index, toss.player) }),
        counting
          ? el("button", { class: `card ${card ? `c-${card}` : ""}`, "data-position": toss.position,
              title: card ? `card ${toss.position}: ${card} (tap to fix)` : "face down (tap to enter)",
              text: card ? (toss.card_corrected ? `${card} ✎` : card) : "",
              onclick: () => fixCard(toss.position, card) })
          : el("span", {}),
        el("span", { class: `points ${points === 0 ? "zero" : ""}`, title: toss.reason || "",
          text: points === null || points === undefined ? "" : `+${points}` }),
        toss.margin_text || toss.reason ? el("span", { class: "notes" },
          toss.margin_text ? el("span", { class: `margin ${toss.margin_us !== null && toss.margin_us < 20000 ? "close" : ""}`, text: toss.margin_text }) : null,
          toss.reason ? el("span", { class: "reason", text: toss.reason }) : null) : null,
        counting ? null : el("span", { class: "why", text: toss.why || "does not count" })));
    }
    list.replaceChildren(...rows);
    list.style.setProperty("--rows", Math.max(rows.length, 1));
    list.dataset.rows = rows.length;
    if (turn && turn.started && !rows.length) {
      list.append(el("li", { class: "hint", text: "No toss yet." }));
    }
  }

  // Type scaled to the space: the biggest rows with which every toss fits the panel (a TV with
  // three tosses gets big rows, the 7" screen with seven gets small ones, none scrolled away)
  const FIT_STEPS = [1, 0.92, 0.85, 0.78, 0.72, 0.66, 0.6];
  function fitRows(list) {
    for (const fit of FIT_STEPS) {
      list.style.setProperty("--fit", fit);
      if (list.scrollHeight <= list.clientHeight + 1) return;
    }
  }

  // after the copy box has its height: fit the rows, then keep the toss that matters in view
  // (the card being turned over, else the latest toss)
  function settleTosses() {
    const list = $("tosses");
    fitRows(list);
    const focus = list.querySelector('[data-current="true"]') || list.lastElementChild;
    if (focus && list.scrollHeight > list.clientHeight + 1) {
      list.scrollTop = Math.max(0, focus.offsetTop - list.offsetTop - list.clientHeight + focus.offsetHeight + 4);
    }
  }
  window.addEventListener("resize", () => { if (state && state.turn) settleTosses(); });

  function renderCopy(turn, game) {
    const copy = $("copy");
    const pick = $("copy-pick");
    copy.replaceChildren();
    pick.replaceChildren();
    if (!turn || !game) return;
    if (turn.copy) {
      const pts = turn.score && turn.score.copied_points;
      copy.textContent = `${turn.roller} copies ${turn.copy.player}${turn.copy.confirmed ? "" : " ? (not confirmed)"}${pts !== undefined && pts !== null ? ` (+${pts})` : ""}`;
    }
    copy.classList.toggle("asking", turn.phase === "copy");
    if (turn.phase === "copy") {
      // the rulebook's order: whom to copy is chosen while the stack is still face down
      copy.replaceChildren(el("strong", { text: turn.copy ? `${turn.roller} copies ${turn.copy.player}?` : `${turn.roller}: whom do you copy?` }),
        el("span", { class: "copy-why", id: "copy-prompt",
          text: "The cards stay face down until you choose: short presses of your button pick, a hold confirms — or tap a name." }));
    }
    if (turn.phase === "review") {
      pick.append(el("button", { id: "btn-finish", text: "Finish turn ✓",
        onclick: () => rig.post("/api/events", { type: "turn_scored" }) }));
    }
    const open = ["rolling", "tossing", "copy"].includes(turn.phase) && turn.cards_revealed === 0;
    if (turn.started && !turn.copy?.confirmed && open) {
      pick.append(el("span", { class: "hint", text: `${turn.roller} copies:` }));
      for (const name of game.players) {
        if (name === turn.roller) continue;
        pick.append(el("button", { class: turn.copy && turn.copy.player === name ? "selected" : "", "data-copy": name,
          text: name, onclick: () => chooseCopy(name) }));
      }
    }
  }

  function renderTotals(s) {
    const body = $("totals").tBodies[0];
    const game = s.game;
    if (!game) { body.replaceChildren(el("tr", {}, el("td", { class: "hint", text: "No game yet: start one with New game." }))); return; }
    const totals = s.totals || {};
    const best = Math.max(...game.players.map((p) => totals[p] || 0));
    const last = s.last_turn && s.last_turn.score ? s.last_turn.score.net : {};
    const current = s.turn && s.turn.score ? s.turn.score.net : null;
    body.replaceChildren(...game.players.map((name) => {
      const delta = current ? current[name] : last[name];
      return el("tr", { class: `${game.whose_turn === name ? "roller" : ""} ${best > 0 && (totals[name] || 0) === best ? "leader" : ""}`, "data-player": name },
        el("td", { class: "name", text: name }),
        el("td", { class: "delta", text: delta ? `${delta > 0 ? "+" : ""}${delta}` : "" }),
        el("td", { class: "total", text: totals[name] || 0 }));
    }));
    const info = $("last-turn");
    info.textContent = s.last_turn
      ? `Turn ${s.last_turn.number}: ${s.last_turn.roller} copied ${s.last_turn.score.copy}` : "";
  }

  function renderHeader(s) {
    const game = s.game;
    const turn = s.turn;
    $("game-name").textContent = game ? (rigGames.NAMES[game.game] || game.game) : "rig";
    if (game && game.game !== "frogs") {
      $("round").textContent = "";
      $("turn-banner").textContent = rigGames.banner(s);
      $("rolls").replaceChildren();
      $("phase").textContent = rigGames.phaseText(s);
      return;
    }
    const round = game ? Math.max(1, game.round) : 0;
    let roundText = "";
    if (game && game.turns_each && round > game.turns_each) {
      const k = round - game.turns_each;  // a tie for the lead added full rounds
      roundText = `Tie! Tie-break round${game.extra_rounds > 1 ? ` ${k} of ${game.extra_rounds}` : ""}`;
    } else if (game && game.turns_each) {
      roundText = `Round ${round} of ${game.turns_each}`;
    }
    $("round").textContent = roundText;
    $("round").classList.toggle("tie", roundText.startsWith("Tie!"));
    let banner = "New game?";
    if (s.winner) banner = `${s.winner} wins!`;
    else if (game && s.outcome) banner = "Game over";
    else if (turn) banner = `${turn.roller}'s turn`;
    $("turn-banner").textContent = banner;
    const pips = [];
    const rolls = turn ? turn.rolls : 0;
    for (let i = 0; i < Math.max(3, rolls); i++) pips.push(el("span", { class: `pip ${i < rolls ? "done" : ""} ${i >= 3 ? "extra" : ""}` }));
    $("rolls").replaceChildren(...(turn ? [el("span", { class: "hint", text: "rolls" }), ...pips] : []));
    $("rolls").title = `${rolls} of 3 rolls`;
    document.body.dataset.players = game ? game.players.length : 0;
    $("phase").textContent = turn ? (PHASES[turn.phase] || ((t) => t.phase))(turn) : (s.outcome ? "game over" : "");
  }

  // A die drawn small, for a violation that names it ("the pink+blue die, top left, moved")
  function miniDie(face) {
    const colours = faceColours(face);
    return el("span", { class: "mini-die", title: `${face} die` },
      colours.length ? el("span", { class: "frog", style: frogStyle(colours) }) : null);
  }
  const FACE_IN_TEXT = /the (blue\+yellow|pink\+blue|yellow\+pink|blue|pink|yellow|blank) die/g;
  const VIOLATIONS = {
    knocked_die: "a settled die was moved", fourth_roll: "a fourth roll", no_new_die: "dice rolled again without a new die",
    not_all_dice_after_three: "not all six dice after three rolls", too_few_rolls: "all six dice before the third roll",
  };

  function violationNotice(v) {
    const what = VIOLATIONS[v.kind] || v.kind.replace(/_/g, " ");
    const faces = [...new Set([...(v.detail || "").matchAll(FACE_IN_TEXT)].map((m) => m[1]))];
    return el("div", { class: "notice violation", "data-kind": v.kind },
      el("strong", { text: `Rule broken by ${v.player}: ${what}` }), faces.map(miniDie),
      v.detail ? el("span", { class: "detail", text: ` — ${v.detail}` }) : null);
  }

  function renderNotices(s) {
    const items = [];
    for (const n of rigStatus.notices || []) {
      items.push(el("div", { class: `notice ${n.kind || ""}`, "data-key": n.key }, n.text,
        n.href ? el("a", { class: "notice-action", href: n.href, text: n.action || "Fix" }) : null));
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
    for (const n of fresh.reverse()) items.push(el("div", { class: "notice bad refused", "data-seq": n.seq, text: `Refused: ${n.reason || n.text || JSON.stringify(n)}` }));
    for (const v of turn ? turn.violations || [] : []) items.push(violationNotice(v));
    for (const heat of turn ? turn.dead_heats || [] : []) items.push(el("div", { class: "notice info", text: heat.text }));
    const problem = turn && turn.problem;
    if (problem && ["copy", "reveal", "review"].includes(turn.phase) && !/whom to copy|cards revealed$/.test(problem)) {
      items.push(el("div", { class: "notice info", text: problem }));
    }
    const box = $("notices");
    box.classList.toggle("open", noticesOpen);
    box.classList.toggle("several", items.length > 1);
    box.replaceChildren(...items);
    if (items.length > 1) {
      box.append(el("button", { class: "more", id: "notices-more", text: noticesOpen ? "less" : `+${items.length - 1} more`,
        onclick: () => { noticesOpen = !noticesOpen; renderNotices(state); } }));
    }
  }

  function renderWinner(s) {
    const box = $("winner");
    if (s.outcome && s.game && s.game.game !== "banana") {
      const totals = s.totals || {};
      const ranking = [...s.game.players].sort((a, b) => (totals[b] || 0) - (totals[a] || 0));
      box.replaceChildren(s.winner ? `★ ${s.winner} wins! ★` : "Game over",
        el("small", { text: ranking.map((p) => `${p} ${totals[p] || 0}`).join(" · ") }),
        el("small", {}, el("button", { text: "New game", onclick: () => openNewGame() })));
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
    const owed = new Set(s.turn ? s.turn.still_to_toss : []);
    $("sim-press").replaceChildren(...players.map((name, i) => el("button", {
      "data-press": name, title: `key ${i + 1}`, class: s.game && s.game.game === "frogs" && s.turn && s.turn.started && !owed.has(name) && name !== s.turn.roller ? "tossed" : "",
      text: `${i + 1} ${name}`, onclick: () => simPress({ player: name }) })));
    $("sim-camera").textContent = simCamera ? "drop camera" : "restore camera";
    const other = Boolean(s.game && s.game.game !== "frogs");
    $("sim-cards").hidden = other;
    $("sim-knock").hidden = other;
    $("sim-hold").hidden = other;
    document.querySelectorAll("#sim [data-roll]").forEach((b) => { b.hidden = other && b.dataset.roll !== "1"; });
    const one = document.querySelector('#sim [data-roll="1"]');
    if (one) one.textContent = other ? "throw" : "roll 1";
  }

  function render(s) {
    state = s;
    $("btn-unlock").hidden = !rig.info.pin_required || Boolean(rig.unlocked);
    renderHeader(s);
    const other = Boolean(s.game && s.game.game !== "frogs");
    $("frog-board").hidden = other;
    $("game-board").hidden = !other;
    if (other) {
      rigGames.render(s);
    } else {
      document.body.dataset.game = s.game ? s.game.game : "none";
      renderDice(s.turn);
      renderTosses(s.turn);
      renderCopy(s.turn, s.game);
      renderTotals(s);
    }
    renderNotices(s);
    renderWinner(s);
    renderSim(s);
    renderKeys(s);
    if (!other) settleTosses();  // last: the notices and the simulation bar have their heights now
    document.body.dataset.version = s.version;
    document.body.dataset.phase = s.turn ? s.turn.phase : (s.outcome ? "over" : "none");
  }

  // ---------------------------------------------------------------- actions
  function choose(dialogId, titleId, title, boxId, options, current, label) {
    return new Promise((resolve) => {
      const dlg = $(dialogId);
      $(titleId).textContent = title;
      $(boxId).replaceChildren(...options.map((opt) => el("button", {
        value: opt, class: `chip ${CARDS.includes(opt) ? `c-${opt}` : ""} ${opt === current ? "selected" : ""}`,
        "data-choice": opt, text: label ? label(opt) : opt })));
      dlg.onclose = () => resolve(dlg.returnValue && dlg.returnValue !== "cancel" ? dlg.returnValue : null);
      dlg.returnValue = "";
      dlg.showModal();
    });
  }

  async function fixDie(index, face) {
    const chosen = await choose("dlg-die", "dlg-die-title", `Die ${index + 1} shows…`, "die-choices", FACES, face);
    if (chosen && chosen !== face) await rig.post("/api/corrections", { what: "die", index, face: chosen });
  }

  async function fixCard(position, card) {
    const title = card ? `Card ${position} is…` : `Card ${position} (face down) is…`;
    const chosen = await choose("dlg-card", "dlg-card-title", title, "card-choices", CARDS, card);
    if (!chosen || chosen === card) return;
    const revealed = state && state.turn ? state.turn.cards_revealed : 0;
    if (position <= revealed) await rig.post("/api/corrections", { what: "card", index: position - 1, card: chosen });
    else if (position === revealed + 1) await rig.post("/api/events", { type: "card_revealed", card: chosen });
    else rig.toast(`Cards are revealed in order: card ${revealed + 1} comes first`, "bad");
  }

  async function fixToss(index, player) {
    const players = state && state.game ? state.game.players : [];
    const tosses = state && state.turn ? state.turn.tosses : [];
    // a wrong order (found at the reveal, or before): swap two tosses, each keeps its card
    const swaps = tosses.filter((t) => t.index !== index && t.counting).map((t) => `swap:${t.index}`);
    const label = (opt) => {
      if (!opt.startsWith("swap:")) return opt;
      const other = tosses.find((t) => t.index === Number(opt.slice(5)));
      return `⇅ swap with ${other.position}. ${other.player}${other.card ? ` (${other.card})` : ""}`;
    };
    const chosen = await choose("dlg-card", "dlg-card-title", `Toss ${index + 1} was…`, "card-choices",
      [...players, "(no toss)", ...swaps], player, label);
    if (!chosen || chosen === player) return;
    let body;
    if (chosen.startsWith("swap:")) body = { what: "swap", index, other: Number(chosen.slice(5)) };
    else if (chosen === "(no toss)") body = { what: "toss", index, remove: true };
    else body = { what: "toss", index, player: chosen };
    await rig.post("/api/corrections", body);
  }

  async function chooseCopy(name) {
    await rig.post("/api/events", { type: "copy_chosen", player: name, confirmed: true });
  }

  // a game under way is abandoned by a new one: ask first (it stays in History as abandoned)
  function runningGame() {
    const s = state;
    if (!s || !s.game || s.outcome || s.game.status !== "playing") return null;
    const turn = s.turn;
    const played = s.game.turns_played || (s.turns ? s.turns.length : 0);
    const started = Boolean(turn && (turn.started || turn.phase && !["waiting", "over"].includes(turn.phase)));
    if (!played && !started) return null;
    const name = rigGames.NAMES[s.game.game] || s.game.game;
    return `${name} with ${s.game.players.join(", ")} is under way (${count(played, "turn")} played). ` +
      "Starting a new game ends it: it stays in History as abandoned.";
  }
  let confirmAbandon = false;
  function resetConfirm() {
    confirmAbandon = false;
    $("new-confirm").hidden = true;
    $("new-start").textContent = "Start";
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

  function newGameOptions(game) {
    const options = {};
    if (game === "blitz") {
      options.variant = $("new-variant").value;
      options.white_dice = Number($("new-white").value);
      const timeout = $("new-timeout").value.trim();
      if (timeout) options.answer_timeout_s = Number(timeout);
      const handicap = {};
      for (const part of $("new-handicap").value.split(",").map((p) => p.trim()).filter(Boolean)) {
        const [name, n] = part.split("=").map((x) => x.trim());
        handicap[name] = Number(n);
      }
      if (Object.keys(handicap).length) options.handicap = handicap;
    } else if (game === "lego") {
      const target = $("new-target").value.trim();
      if (target) options.target = Number(target);
    }
    return options;
  }

  $("form-new").addEventListener("submit", async (event) => {
    const submitter = event.submitter;
    if (!submitter || submitter.value !== "start") return;
    event.preventDefault();
    const running = runningGame();
    if (running && !confirmAbandon) {
      confirmAbandon = true;
      $("new-confirm").textContent = running;
      $("new-confirm").hidden = false;
      $("new-start").textContent = "Abandon it and start";
      return;
    }
    const players = $("new-players").value.split(/[\n,]/).map((p) => p.trim()).filter(Boolean);
    const game = $("new-game").value;
    let options = newGameOptions(game);
    if (game === "frogs") {
      const turns = $("new-turns").value.trim();
      if (turns) options.turns_each = Number(turns);
      const penalty = $("new-penalty").value.trim();
      if (penalty && Number(penalty) > 0) options.penalty_per_violation = Number(penalty);
    }
    const result = await rig.post("/api/games", { game, players, options });
    if (result.ok) $("dlg-new").close("start");
    else { $("new-error").textContent = result.body.error || "refused"; resetConfirm(); }
  });

  async function openHistory() {
    const box = $("history");
    box.replaceChildren(el("p", { class: "hint", text: "loading…" }));
    $("dlg-history").showModal();
    let data;
    try { data = await rig.getJSON("/api/history"); } catch (err) { box.replaceChildren(el("p", { class: "error", text: String(err) })); return; }
    const games = data.games || [];
    if (!games.length) { box.replaceChildren(el("p", { class: "hint", text: "No games yet." })); return; }
    const rows = games.map((g) => {
      const totals = g.totals || {};
      const names = Object.keys(totals).sort((a, b) => totals[b] - totals[a]);
      const when = g.started_at ? String(g.started_at).replace("T", " ").slice(0, 16) : "";
      const title = rigGames.NAMES[g.game] || g.game || "";
      const result = g.winner ? `${g.winner} won` : g.status === "playing" ? "in progress" : (g.status || "unfinished");
      return el("div", { class: `hist-game ${g.status || ""}`, "data-number": g.number, "data-status": g.status },
        el("strong", { text: `Game ${g.number ?? g.id} · ${title}` }), " ",
        el("span", { class: `hist-result ${g.status || ""}`, text: `— ${result}${g.turns ? `, ${count(g.turns, "turn")}` : ""}` }),
        when ? el("span", { class: "hint", text: ` · ${when}` }) : null,
        el("div", { class: "hint", text: names.map((n) => `${n} ${totals[n]}`).join(" · ") }));
    });
    // per kind of game: frogs points and LEGO track points are not added together
    const players = data.players || [];
    const kinds = [...new Set(players.map((p) => p.game || "frogs"))];
    const tables = kinds.map((kind) => [
      el("h3", { text: `${rigGames.NAMES[kind] || kind}: players` }),
      el("table", { class: "hist-players", "data-game": kind },
        el("tr", {}, ["player", "games", "wins", "points", "best"].map((h) => el("th", { text: h }))),
        players.filter((p) => (p.game || "frogs") === kind).map((p) => el("tr", {},
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
    if (result.ok) { rig.toast("Unlocked: this device may change the game"); $("btn-unlock").hidden = true; }
    else rig.setPin("");
  };

  // ---------------------------------------------------------------- simulation
  function rollRest() {
    const have = state && state.turn ? state.turn.dice.length : 0;
    return Math.max(1, 6 - have);
  }
  function rollDefault() {
    const turn = state && state.turn;
    const have = turn ? turn.dice.length : 0;
    const rolls = turn ? turn.rolls : 0;
    if (rolls >= 2) return Math.max(1, 6 - have);
    return Math.min(2, Math.max(1, 6 - have - (2 - rolls)));
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
  const COMMON_KEYS = [["c", "drop / restore the camera"], ["n", "new game"], ["?", "this list"]];
  // game name → its keys, key line and whether it lays cards: from the registry (fillGameMenu)
  const KEYS = {};
  const KEY_HINTS = {};
  const LAYS_CARDS = {};
  const CARD_KEYS = { b: "blue", p: "pink", y: "yellow", k: "blank", g: "gray" };
  const CARD_GAME_KEYS = ["h", "x", ...Object.keys(CARD_KEYS)];  // the cards, the copy and the violations
  const firstGame = () => ((rig.info.games || [])[0] || {}).name;
  const gameOf = (s) => (s && s.game && KEYS[s.game.game] ? s.game.game : firstGame());
  function renderKeys(s) {
    const game = gameOf(s);
    const line = $("keys");
    line.textContent = rig.info.sim ? KEY_HINTS[game] || "" : "";
    if (game) line.dataset.game = game;
    const rows = rig.info.sim ? [...(KEYS[game] || []), ...COMMON_KEYS] : [["n", "new game"], ["?", "this list"]];
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
        if (!$("frog-board").hidden) settleTosses();
      }
    } catch (err) { /* the live indicator says it */ }
  }

  // The Game menu: one option per registered game (rig.registry), titled with its description.
  function fillGameMenu(games) {
    for (const g of games) {
      rigGames.NAMES[g.name] = g.title;
      KEYS[g.name] = g.keys;
      KEY_HINTS[g.name] = g.key_hint;
      LAYS_CARDS[g.name] = g.lays_cards;
      PLAYER_HINTS[g.name] = g.player_hint;
    }
    $("new-game").replaceChildren(...games.map((g) => el("option", { value: g.name, text: g.title, title: g.description })));
  }

  rig.loadInfo().then((info) => {
    fillGameMenu(info.games || []);
    $("pin").textContent = info.pin ? `PIN ${info.pin}` : "";
    $("btn-unlock").hidden = !info.pin_required;
    renderKeys(state);
    rig.live(render, (on) => $("live").classList.toggle("on", on));
    pollRig();
    setInterval(pollRig, 1000);
  });
})();
