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
  const PHASES = {
    waiting: (t) => `${t.roller}: press to start`,
    rolling: () => "rolling",
    tossing: (t) => (t.still_to_toss.length ? `to toss: ${t.still_to_toss.join(", ")}` : "tossing"),
    copy: (t) => `${t.roller}: whom to copy?`,
    reveal: (t) => `turn over card ${t.cards_revealed + 1} of ${t.cards_expected}`,
    review: (t) => `${t.roller}: hold to finish the turn`,
    over: () => "game over",
  };
  let state = null;

  // ---------------------------------------------------------------- the board and its dialogs
  function board() {
    document.body.append(
      el("dialog", { id: "dlg-die" }, el("form", { method: "dialog" },
        el("h3", { id: "dlg-die-title", text: "Fix die" }), el("div", { class: "choices", id: "die-choices" }),
        el("button", { value: "cancel", text: "Cancel" }))),
      el("dialog", { id: "dlg-card" }, el("form", { method: "dialog" },
        el("h3", { id: "dlg-card-title", text: "Fix card" }), el("div", { class: "choices", id: "card-choices" }),
        el("button", { value: "cancel", text: "Cancel" }))));
    return el("main", { class: "board", id: "frog-board" },
      // the referee's evidence strip lies over the dice column, below the dice, clear of the tosses
      el("section", { class: "panel dice-panel", "data-review-column": "" },
        el("h2", {}, "Dice ", el("span", { class: "hint", text: "tap a die to fix it" })),
        el("div", { class: "dice", id: "dice", "data-review-below": "" }),
        el("div", { class: "lasered", id: "lasered" })),
      el("section", { class: "panel tosses-panel", "data-winner-column": "" },
        el("h2", {}, "Tosses ", el("span", { class: "hint", text: "tap a card to fix it" })),
        el("ol", { class: "tosses", id: "tosses" }),
        el("div", { class: "copy", id: "copy" }),
        el("div", { class: "copy-pick", id: "copy-pick" })),
      el("section", { class: "panel totals-panel" },
        el("h2", { text: "Scores" }),
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
      if (!die) { tiles.push(el("div", { class: "die empty", "aria-label": "no die yet" })); continue; }
      const lasers = (die.lasered || []).filter((c) => !die.colours.includes(c));
      tiles.push(el("button", {
        class: `die ${die.corrected ? "corrected" : ""} ${die.uncertain ? "uncertain" : ""}${lasers.length ? " has-lasers" : ""}`,
        "data-index": i, "data-face": die.face, title: `die ${i + 1}: ${die.face}${lasers.length ? ` (+ lasered ${lasers.join(", ")})` : ""}`,
        onclick: () => fixDie(i, die.face),
      },
      die.colours.length ? el("span", { class: "frog", style: frogStyle(die.colours) }) : null,
      lasers.length ? el("span", { class: "lasers", title: `lasered: ${lasers.join(", ")}` }, lasers.map((c) => el("span", { class: "laser", style: `background: ${COLOUR[c]}; color: ${COLOUR[c]}` }))) : null,
      // "blank + yellow": the face and what was lasered onto it; a combo may break after its +
      el("span", { class: "label" }, die.face.replace("+", "+\u200b"),
        lasers.length ? el("span", { class: "label-laser", text: ` + ${lasers.join(" + ")}` }) : null)));
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

  // the margin in a few characters, for a row with no room for the sentence ("+2.6 ms", "dead heat")
  function shortMargin(toss) {
    const us = toss.margin_us;
    if (toss.dead_heat) return "dead heat";
    if (us === null || us === undefined) return "";
    if (Math.abs(us) < 1000) return `+${us} µs`;
    return Math.abs(us) < 1e6 ? `+${(us / 1000).toFixed(1)} ms` : `+${(us / 1e6).toFixed(2)} s`;
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
        "data-current": counting && toss.position === revealing ? "true" : null, "data-swapped": toss.swapped ? "true" : null,
        "data-review-uncovered": "" },
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
          toss.margin_text ? el("span", { class: `margin-short ${toss.margin_us !== null && toss.margin_us < 20000 ? "close" : ""}`,
            title: toss.margin_text, text: shortMargin(toss) }) : null,
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
      roundText = `Tie! Tie-break round${game.extra_rounds > 1 ? ` ${k} of ${game.extra_rounds}` : ""}`;
    } else if (game && game.turns_each) {
      roundText = `Round ${round} of ${game.turns_each}`;
    }
    let banner = "New game?";
    if (s.winner) banner = `${s.winner} wins!`;
    else if (game && s.outcome) banner = "Game over";
    else if (turn) banner = `${turn.roller}'s turn`;
    const pips = [];
    const rolls = turn ? turn.rolls : 0;
    for (let i = 0; i < Math.max(3, rolls); i++) pips.push(el("span", { class: `pip ${i < rolls ? "done" : ""} ${i >= 3 ? "extra" : ""}` }));
    return {
      round: roundText, tie: roundText.startsWith("Tie!"), banner,
      rolls: turn ? [el("span", { class: "hint", text: "rolls" }), ...pips] : [], rollsTitle: `${rolls} of 3 rolls`,
      phase: turn ? (PHASES[turn.phase] || ((t) => t.phase))(turn) : (s.outcome ? "game over" : ""),
    };
  }

  // ---------------------------------------------------------------- notices: rule breaks, dead heats
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

  function notices(s) {
    const turn = s.turn;
    const items = [];
    for (const v of turn ? turn.violations || [] : []) items.push(violationNotice(v));
    for (const heat of turn ? turn.dead_heats || [] : []) items.push(el("div", { class: "notice info", text: heat.text }));
    const problem = turn && turn.problem;
    if (problem && ["copy", "reveal", "review"].includes(turn.phase) && !/whom to copy|cards revealed$/.test(problem)) {
      items.push(el("div", { class: "notice info", text: problem }));
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

  // ---------------------------------------------------------------- the new-game form
  const fields = () => [
    el("label", {}, "Turns each ", el("input", { id: "new-turns", type: "number", min: 1, max: 20, placeholder: "auto" })),
    el("label", {}, "Penalty per violation ", el("input", { id: "new-penalty", type: "number", min: 0, max: 10, value: 0 })),
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
