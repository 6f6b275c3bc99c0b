// Banana Moon's start roll on the page: the white and the black die, who starts, the rolls so far
// (the renderer interface: rig/display/static/games.js).
"use strict";
(function () {
  const { el } = rig;
  const PHASES = {
    waiting: () => rig.t("both roll one die"),
    reroll: () => rig.t("a tie: roll again"),
    decided: () => rig.t("decided"),
    over: () => rig.t("start points set"),
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
      el("div", { class: "start-who", text: `${who[kind]} · ${kind === "white" ? rig.t("white sequence") : rig.t("black sequence")}` }),
      el("div", { class: "start-value", text: value(kind) }),
      el("div", { class: "hint", text: start && !start.reroll ? rig.t("starts at {n}", { n: value(kind) }) : "" }));
    let verdict = rig.t("Both players roll their die.");
    if (start && start.reroll) verdict = rig.t("A tie ({white} : {black}) — roll again!", { white: start.white_start, black: start.black_start });
    else if (start) verdict = rig.t("{name} starts.", { name: start.starter });
    main.replaceChildren(el("div", { class: "start-roll" }, card("white"), card("black")),
      el("div", { class: "big-verdict", id: "banana-verdict", text: verdict }));
    side.replaceChildren(el("h2", { text: rig.t("Rolls") }), el("ol", { class: "rolls-list" },
      s.turns.map((r) => el("li", { text: rig.t("white {white} : black {black}", { white: r.white, black: r.black }) + (r.white === r.black ? ` (${rig.t("tie")})` : "") }))));
  }

  function header(s) {
    const t = s.turn;
    let banner = rig.t("Start roll");
    if (s.winner) banner = rig.t("{name} wins!", { name: s.winner });
    else if (s.outcome && s.outcome.outcome) banner = rig.t("{name} starts", { name: s.outcome.outcome.starter });
    return { banner, phase: t ? (PHASES[t.phase] || ((x) => x.phase))(t) : "" };
  }

  // the start roll decides who starts: no winner banner at its end
  rigGames.register("banana", { render, header, winner: false });
})();
