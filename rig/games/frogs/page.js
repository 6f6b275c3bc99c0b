// Lunar Laser Frogs on the page: the dice (tap one to fix it), the tosses in landing order with
// their cards (tap to fix), whom the roller copies, the scores; the round and the three rolls in
// the top bar, rule breaks as notices (the renderer interface: rig/display/static/games.js).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const { el } = rig;
  const FACES = ["blue", "pink", "yellow", "blank", "pink+blue", "yellow+pink", "blue+yellow"];
  const CARDS = ["blue", "pink", "yellow", "blank", "gray"];
  const COLOUR = { blue: "var(--blue)", pink: "var(--pink)", yellow: "var(--yellow)" };
  // the colours and cards as the German rulebook names them (blau, pink, gelb, blanko, grau)
  const NAMES = { blue: rig.t("blue"), pink: rig.t("pink"), yellow: rig.t("yellow"), blank: rig.t("blank"), gray: rig.t("gray") };
  const named = (face) => String(face).split("+").map((c) => NAMES[c] || c).join("+");
  const PHASES = {
    waiting: (t) => rig.t("{name}: press to start", { name: t.roller }),
    rolling: () => rig.t("rolling"),
    tossing: (t) => (t.still_to_toss.length ? rig.t("to toss: {names}", { names: t.still_to_toss.join(", ") }) : rig.t("tossing")),
    copy: (t) => rig.t("{name}: whom to copy?", { name: t.roller }),
    reveal: (t) => rig.t("turn over card {k} of {n}", { k: t.cards_revealed + 1, n: t.cards_expected }),
    review: (t) => rig.t("{name}: hold to finish the turn", { name: t.roller }),
    over: () => rig.t("game over"),
  };
  let state = null;

  // ---------------------------------------------------------------- the board and its dialogs
  function board() {
    document.body.append(
      el("dialog", { id: "dlg-die" }, el("form", { method: "dialog" },
        el("h3", { id: "dlg-die-title", text: rig.t("Fix die") }), el("div", { class: "choices", id: "die-choices" }),
        el("button", { value: "cancel", text: rig.t("Cancel") }))),
      el("dialog", { id: "dlg-card" }, el("form", { method: "dialog" },
        el("h3", { id: "dlg-card-title", text: rig.t("Fix card") }), el("div", { class: "choices", id: "card-choices" }),
        el("button", { value: "cancel", text: rig.t("Cancel") }))));
    return el("main", { class: "board", id: "frog-board" },
      // the referee's evidence strip lies over the dice column, below the dice, clear of the tosses
      el("section", { class: "panel dice-panel", "data-review-column": "" },
        el("h2", {}, rig.t("Dice"), " ", el("span", { class: "hint", text: rig.t("tap a die to fix it") })),
        el("div", { class: "dice", id: "dice", "data-review-below": "" }),
        el("div", { class: "lasered", id: "lasered" })),
      el("section", { class: "panel tosses-panel", "data-winner-column": "" },
        el("h2", {}, rig.t("Tosses"), " ", el("span", { class: "hint", text: rig.t("tap a card to fix it") })),
        el("ol", { class: "tosses", id: "tosses" }),
        el("div", { class: "copy", id: "copy" }),
        el("div", { class: "copy-pick", id: "copy-pick" })),
      el("section", { class: "panel totals-panel" },
        el("h2", { text: rig.t("Scores") }),
        el("table", { class: "totals", id: "totals" }, el("tbody")),
        el("div", { class: "last-turn", id: "last-turn" })));
  }

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
      if (!die && turn && turn.rolls >= 3 && i === dice.length) {  // a die the camera did not see: add it
        tiles.push(el("button", { class: "die empty add", "data-index": i, title: rig.t("add the die the camera did not see"),
          "aria-label": rig.t("add the die the camera did not see"), onclick: () => fixDie(i, null) }, el("span", { class: "label", text: "+" })));
        continue;
      }
      if (!die) { tiles.push(el("div", { class: "die empty", "aria-label": rig.t("no die yet") })); continue; }
      const lasers = (die.lasered || []).filter((c) => !die.colours.includes(c));
      tiles.push(el("button", {
        class: `die ${die.corrected ? "corrected" : ""} ${die.uncertain ? "uncertain" : ""}${lasers.length ? " has-lasers" : ""}`,
        "data-index": i, "data-face": die.face, title: rig.t("die {i}: {face}", { i: i + 1, face: named(die.face) }) +
          (lasers.length ? ` (${rig.t("+ lasered {colours}", { colours: lasers.map(named).join(", ") })})` : ""),
        onclick: () => fixDie(i, die.face),
      },
      die.colours.length ? el("span", { class: "frog", style: frogStyle(die.colours) }) : null,
      lasers.length ? el("span", { class: "lasers", title: rig.t("lasered: {colours}", { colours: lasers.map(named).join(", ") }) }, lasers.map((c) => el("span", { class: "laser", style: `background: ${COLOUR[c]}; color: ${COLOUR[c]}` }))) : null,
      // "blank + yellow": the face and what was lasered onto it; a combo may break after its +
      el("span", { class: "label" }, named(die.face).replace("+", "+\u200b"),
        lasers.length ? el("span", { class: "label-laser", text: ` + ${lasers.map(named).join(" + ")}` }) : null)));
    }
    $("dice").replaceChildren(...tiles);
    const box = $("lasered");
    box.replaceChildren();
    if (turn && turn.lasered && turn.lasered.length) {
      box.append(rig.t("Lasered onto every die:"), " ", ...turn.lasered.map((c) => el("span", { class: `tag c-${c}`, text: named(c) })));
    } else if (turn && turn.dice.length === 6) {
      box.append(el("span", { class: "hint", text: rig.t("No colour missing: nothing lasered.") }));
    }
    const counts = turn && turn.score && turn.score.counts;
    if (counts) {
      box.append(el("div", { class: "counts", text: Object.entries(counts).map(([k, v]) => `${named(k)} ${v}`).join(" · "),
        title: rig.t("dice showing each colour (lasered colours included)") }));
    }
  }

  // the margin in a few characters, for a row with no room for the sentence ("+2.6 ms", "dead heat")
  function shortMargin(toss) {
    const us = toss.margin_us;
    if (toss.dead_heat) return rig.t("dead heat");
    if (us === null || us === undefined) return "";
    return `+${gap(us)}`;
  }

  // a gap for people in the page's locale: µs below a millisecond, ms below a second, else seconds
  function gap(us) {
    if (Math.abs(us) < 1000) return `${rig.num(us)} µs`;
    return Math.abs(us) < 1e6 ? `${rig.num(us / 1000, 1)} ms` : `${rig.num(us / 1e6, 2)} s`;
  }

  // the photo-finish sentence ("Cleo beat Ben by 3.2 ms"), said in the page's language
  function marginText(toss, previous) {
    if (!toss.margin_text || !previous || rig.lang === "en") return toss.margin_text;
    if (toss.dead_heat) return rig.t(toss.margin_text);  // the rig's sentence, by the catalogue's patterns
    if (previous.player === toss.player) return rig.t("{name} again, {gap} later", { name: toss.player, gap: gap(toss.margin_us) });
    return rig.t("{first} beat {second} by {gap}", { first: previous.player, second: toss.player, gap: gap(toss.margin_us) });
  }

  function renderTosses(turn) {
    const list = $("tosses");
    const rows = [];
    const revealing = turn && turn.phase === "reveal" ? turn.cards_revealed + 1 : null;
    let previous = null;
    for (const raw of turn ? turn.tosses : []) {
      const toss = raw.counting ? Object.assign({}, raw, { margin_text: marginText(raw, previous) }) : raw;
      if (raw.counting) previous = raw;
      const counting = toss.counting;
      const card = toss.card;
      const points = toss.points;
      rows.push(el("li", { class: `toss ${counting ? "" : "void"} ${toss.dead_heat ? "heat" : ""}`, "data-player": toss.player,
        "data-current": counting && toss.position === revealing ? "true" : null, "data-swapped": toss.swapped ? "true" : null,
        "data-review-uncovered": "" },
        el("span", { class: "order", text: counting ? toss.position : "–" }),
        el("button", { class: "who", title: rig.t("tap to fix who tossed, or to swap two tosses"), text: toss.swapped ? `${toss.player} ⇅` : toss.player,
          onclick: () => fixToss(toss.index, toss.player) }),
        counting
          ? el("button", { class: `card ${card ? `c-${card}` : ""}`, "data-position": toss.position,
              title: card ? rig.t("card {k}: {card} (tap to fix)", { k: toss.position, card: named(card) }) : rig.t("face down (tap to enter)"),
              text: card ? (toss.card_corrected ? `${named(card)} ✎` : named(card)) : "",
              onclick: () => fixCard(toss.position, card) })
          : el("span", {}),
        el("span", { class: `points ${points === 0 ? "zero" : ""}`, title: toss.reason ? rig.t(toss.reason) : "",
          text: points === null || points === undefined ? "" : `+${points}` }),
        toss.margin_text || toss.reason ? el("span", { class: "notes" },
          toss.margin_text ? el("span", { class: `margin-short ${toss.margin_us !== null && toss.margin_us < 20000 ? "close" : ""}`,
            title: toss.margin_text, text: shortMargin(toss) }) : null,
          toss.margin_text ? el("span", { class: `margin ${toss.margin_us !== null && toss.margin_us < 20000 ? "close" : ""}`, text: toss.margin_text }) : null,
          toss.reason ? el("span", { class: "reason", text: rig.t(toss.reason) }) : null) : null,
        counting ? null : el("span", { class: "why", text: toss.why ? rig.t(toss.why) : rig.t("does not count") })));
    }
    list.replaceChildren(...rows);
    list.style.setProperty("--rows", Math.max(rows.length, 1));
    list.dataset.rows = rows.length;
    if (turn && turn.started && !rows.length) {
      list.append(el("li", { class: "hint", text: rig.t("No toss yet.") }));
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
    if (!list || $("frog-board").hidden) return;
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
      copy.textContent = rig.t("{roller} copies {player}", { roller: turn.roller, player: turn.copy.player }) +
        (turn.copy.confirmed ? "" : ` ? (${rig.t("not confirmed")})`) + (pts !== undefined && pts !== null ? ` (+${pts})` : "");
    }
    copy.classList.toggle("asking", turn.phase === "copy");
    if (turn.phase === "copy") {
      // the rulebook's order: whom to copy is chosen while the stack is still face down
      copy.replaceChildren(el("strong", { text: turn.copy ? `${rig.t("{roller} copies {player}", { roller: turn.roller, player: turn.copy.player })}?`
        : rig.t("{name}: whom do you copy?", { name: turn.roller }) }),
        el("span", { class: "copy-why", id: "copy-prompt",
          text: rig.t("The cards stay face down until you choose: short presses of your button pick, a hold confirms — or tap a name.") }));
    }
    if (turn.phase === "review") {
      pick.append(el("button", { id: "btn-finish", text: rig.t("Finish turn ✓"),
        onclick: () => rig.post("/api/events", { type: "turn_scored" }) }));
    }
    const open = ["rolling", "tossing", "copy"].includes(turn.phase) && turn.cards_revealed === 0;
    if (turn.started && !turn.copy?.confirmed && open) {
      pick.append(el("span", { class: "hint", text: rig.t("{name} copies:", { name: turn.roller }) }));
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
    if (!game) { body.replaceChildren(el("tr", {}, el("td", { class: "hint", text: rig.t("No game yet: start one with New game.") }))); return; }
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
      ? rig.t("Turn {number}: {roller} copied {player}", { number: s.last_turn.number, roller: s.last_turn.roller, player: s.last_turn.score.copy }) : "";
  }

  function render(s) {
    state = s;
    renderDice(s.turn);
    renderTosses(s.turn);
    renderCopy(s.turn, s.game);
    renderTotals(s);
  }

  // the top bar: the round (a tie-break too), whose turn, the three rolls, the phase
  function header(s) {
    const game = s.game;
    const turn = s.turn;
    const round = game ? Math.max(1, game.round) : 0;
    let roundText = "";
    if (game && game.turns_each && round > game.turns_each) {
      const k = round - game.turns_each;  // a tie for the lead added full rounds
      roundText = game.extra_rounds > 1 ? rig.t("Tie! Tie-break round {k} of {n}", { k, n: game.extra_rounds }) : rig.t("Tie! Tie-break round");
    } else if (game && game.turns_each) {
      roundText = rig.t("Round {k} of {n}", { k: round, n: game.turns_each });
    }
    let banner = rig.t("New game?");
    if (s.winner) banner = rig.t("{name} wins!", { name: s.winner });
    else if (game && s.outcome) banner = rig.t("Game over");
    else if (turn) banner = rig.t("{name}'s turn", { name: turn.roller });
    const pips = [];
    const rolls = turn ? turn.rolls : 0;
    for (let i = 0; i < Math.max(3, rolls); i++) pips.push(el("span", { class: `pip ${i < rolls ? "done" : ""} ${i >= 3 ? "extra" : ""}` }));
    return {
      round: roundText, tie: Boolean(game && game.turns_each && round > game.turns_each), banner,
      rolls: turn ? [el("span", { class: "hint", text: rig.t("rolls") }), ...pips] : [], rollsTitle: rig.t("{k} of 3 rolls", { k: rolls }),
      phase: turn ? (PHASES[turn.phase] || ((t) => t.phase))(turn) : (s.outcome ? rig.t("game over") : ""),
    };
  }

  // ---------------------------------------------------------------- notices: rule breaks, dead heats
  // A die drawn small, for a violation that names it ("the pink+blue die, top left, moved")
  function miniDie(face) {
    const colours = faceColours(face);
    return el("span", { class: "mini-die", title: rig.t("{face} die", { face: named(face) }) },
      colours.length ? el("span", { class: "frog", style: frogStyle(colours) }) : null);
  }
  const FACE_IN_TEXT = /the (blue\+yellow|pink\+blue|yellow\+pink|blue|pink|yellow|blank) die/g;
  const VIOLATIONS = {
    knocked_die: rig.t("a settled die was moved"), fourth_roll: rig.t("a fourth roll"), no_new_die: rig.t("dice rolled again without a new die"),
    not_all_dice_after_three: rig.t("not all six dice after three rolls"), too_few_rolls: rig.t("all six dice before the third roll"),
  };

  function violationNotice(v) {
    const what = VIOLATIONS[v.kind] || v.kind.replace(/_/g, " ");
    const faces = [...new Set([...(v.detail || "").matchAll(FACE_IN_TEXT)].map((m) => m[1]))];
    return el("div", { class: "notice violation", "data-kind": v.kind },
      el("strong", { text: rig.t("Rule broken by {name}: {what}", { name: v.player, what }) }), faces.map(miniDie),
      v.detail ? el("span", { class: "detail", text: ` — ${rig.t(v.detail)}` }) : null,
      v.kind === "not_all_dice_after_three" ? el("span", { class: "hint", text: ` (${rig.t("a die not seen? Tap + to add it")})` }) : null);
  }

  function notices(s) {
    const turn = s.turn;
    const items = [];
    for (const v of turn ? turn.violations || [] : []) items.push(violationNotice(v));
    for (const heat of turn ? turn.dead_heats || [] : []) items.push(el("div", { class: "notice info", text: rig.t(heat.text) }));
    const problem = turn && turn.problem;
    if (problem && ["copy", "reveal", "review"].includes(turn.phase) && !/whom to copy|cards revealed$/.test(problem)) {
      items.push(el("div", { class: "notice info", text: rig.t(problem) }));
    }
    return items;
  }

  // ---------------------------------------------------------------- corrections
  function choose(dialogId, titleId, title, boxId, options, current, label) {
    return new Promise((resolve) => {
      const dlg = $(dialogId);
      $(titleId).textContent = title;
      $(boxId).replaceChildren(...options.map((opt) => el("button", {
        value: opt, class: `chip ${CARDS.includes(opt) ? `c-${opt}` : ""} ${opt === current ? "selected" : ""}`,
        "data-choice": opt, text: label ? label(opt) : named(opt) })));
      dlg.onclose = () => resolve(dlg.returnValue && dlg.returnValue !== "cancel" ? dlg.returnValue : null);
      dlg.returnValue = "";
      dlg.showModal();
    });
  }

  async function fixDie(index, face) {
    const chosen = await choose("dlg-die", "dlg-die-title", rig.t("Die {i} shows…", { i: index + 1 }), "die-choices", FACES, face);
    if (chosen && chosen !== face) await rig.post("/api/corrections", { what: "die", index, face: chosen });
  }

  async function fixCard(position, card) {
    const title = card ? rig.t("Card {k} is…", { k: position }) : rig.t("Card {k} (face down) is…", { k: position });
    const chosen = await choose("dlg-card", "dlg-card-title", title, "card-choices", CARDS, card);
    if (!chosen || chosen === card) return;
    const revealed = state && state.turn ? state.turn.cards_revealed : 0;
    if (position <= revealed) await rig.post("/api/corrections", { what: "card", index: position - 1, card: chosen });
    else if (position === revealed + 1) await rig.post("/api/events", { type: "card_revealed", card: chosen });
    else rig.toast(rig.t("Cards are revealed in order: card {k} comes first", { k: revealed + 1 }), "bad");
  }

  async function fixToss(index, player) {
    const players = state && state.game ? state.game.players : [];
    const tosses = state && state.turn ? state.turn.tosses : [];
    // a wrong order (found at the reveal, or before): swap two tosses, each keeps its card
    const swaps = tosses.filter((t) => t.index !== index && t.counting).map((t) => `swap:${t.index}`);
    const label = (opt) => {
      if (opt === "(no toss)") return rig.t("(no toss)");
      if (!opt.startsWith("swap:")) return opt;
      const other = tosses.find((t) => t.index === Number(opt.slice(5)));
      return `⇅ ${rig.t("swap with {k}. {name}", { k: other.position, name: other.player })}${other.card ? ` (${named(other.card)})` : ""}`;
    };
    const chosen = await choose("dlg-card", "dlg-card-title", rig.t("Toss {i} was…", { i: index + 1 }), "card-choices",
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

  // ---------------------------------------------------------------- the new-game form
  const fields = () => [
    el("label", {}, rig.t("Turns each"), " ", el("input", { id: "new-turns", type: "number", min: 1, max: 20, placeholder: rig.t("auto") })),
    el("label", {}, rig.t("Penalty per violation"), " ", el("input", { id: "new-penalty", type: "number", min: 0, max: 10, value: 0 })),
  ];
  function read() {
    const options = {};
    const turns = $("new-turns").value.trim();
    if (turns) options.turns_each = Number(turns);
    const penalty = $("new-penalty").value.trim();
    if (penalty && Number(penalty) > 0) options.penalty_per_violation = Number(penalty);
    return options;
  }

  rigGames.register("frogs", {
    board, render, header, notices, layout: settleTosses, options: { fields, read }, evidence: true,
  });
})();
