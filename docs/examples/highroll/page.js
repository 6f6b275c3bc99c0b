// High Roll on the page: the throws so far (the highest marked) and whose throw is next. The
// renderer interface is in rig/display/static/games.js; docs/games-new.md walks through it.
"use strict";
(function () {
  const { el } = rig;

  function render(s, { main, side }) {
    const throws = s.turns || [];
    const high = Math.max(0, ...throws.map((t) => t.pips));
    main.replaceChildren(el("h2", { text: "Throws" }),
      el("ol", { class: "highroll-throws", id: "highroll-throws" }, throws.map((t) => el("li", {
        class: t.pips === high ? "high" : "", "data-player": t.player, text: `${t.player}: ${t.pips}` }))));
    side.replaceChildren(el("h2", { text: "Next" }),
      el("div", { class: "highroll-next", text: s.turn && s.turn.roller ? s.turn.roller : "everybody has thrown" }));
  }

  function header(s) {
    const next = s.turn && s.turn.roller;
    return { banner: s.winner ? `${s.winner} wins!` : next ? `${next} throws` : "Game over", phase: s.turn ? s.turn.phase : "" };
  }

  rigGames.register("highroll", { render, header });
})();
