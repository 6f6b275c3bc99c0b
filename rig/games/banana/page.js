// Banana Moon's start roll on the page: the white and the black die, who starts, the rolls so far
// (the renderer interface: rig/display/static/games.js).
"use strict";
(function () {
  const { el } = rig;
  const PHASES = {
    waiting: () => "both roll one die",
    reroll: () => "a tie: roll again",
    decided: () => "decided",
    over: () => "start points set",
  };

  function render(s, { main, side }) {
    const t = s.turn;
    const start = t.start;
    const who = s.game.dice_of;
    const value = (kind) => {
      const die = t.dice.find((d) => d.startsWith(`${kind}:`));
      return die ? die.split(":")[1] : "–";
    };
    const card = (kind) => el("div", { class: `start-card ${kind}`, id: `start-${kind}`, "data-value": value(kind) },
      el("div", { class: "start-who", text: `${who[kind]} · ${kind} sequence` }),
      el("div", { class: "start-value", text: value(kind) }),
      el("div", { class: "hint", text: start && !start.reroll ? `starts at ${value(kind)}` : "" }));
    let verdict = "Both players roll their die.";
    if (start && start.reroll) verdict = `A tie (${start.white_start} : ${start.black_start}) — roll again!`;
    else if (start) verdict = `${start.starter} starts.`;
    main.replaceChildren(el("div", { class: "start-roll" }, card("white"), card("black")),
      el("div", { class: "big-verdict", id: "banana-verdict", text: verdict }));
    side.replaceChildren(el("h2", { text: "Rolls" }), el("ol", { class: "rolls-list" },
      s.turns.map((r) => el("li", { text: `white ${r.white} : black ${r.black}${r.white === r.black ? " (tie)" : ""}` }))));
  }

  function header(s) {
    const t = s.turn;
    let banner = "Start roll";
    if (s.winner) banner = `${s.winner} wins!`;
    else if (s.outcome && s.outcome.outcome) banner = `${s.outcome.outcome.starter} starts`;
    return { banner, phase: t ? (PHASES[t.phase] || ((x) => x.phase))(t) : "" };
  }

  // the start roll decides who starts: no winner banner at its end
  rigGames.register("banana", { render, header, winner: false });
})();
