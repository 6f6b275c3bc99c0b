// The games' renderers: each game package ships its scoreboard (rig/games/<name>/page.js and
// page.css, served at /games/<name>/page.js); the page loads those of every registered game
// (GET /api/display's "games") and the script registers its renderer here:
//
//   rigGames.register(name, {
//     render(state, board),   // required: draw the game; board = {main, side} (the two panels of
//                             //   #game-board) or, with board() below, {main: its own element}
//     board(),                // optional: its own <main class="board"> (made once, put in the page)
//     header(state),          // optional: {banner, phase, round, tie, rolls: [nodes]} for the top bar
//     notices(state),         // optional: [nodes] under the bar (rule breaks, ...)
//     layout(state),          // optional: after the whole page is drawn (the sizes are known)
//     options: {fields(), read()},  // optional: the new-game form's fields, and the options they give
//     winner: false,          // optional: no winner banner at the game's end (default: shown)
//     evidence: true,         // optional: its turns have camera evidence and a photo finish (the
//                             //   referee's strip in the turn's "review" phase, its Turns tab)
//   });
//
// A game without a page script is drawn by the generic renderer below: the players, their
// scores and the turn from the state's common fields (game.players, game.whose_turn, totals,
// turn.number/roller/phase/dice, winner, outcome). Documented in docs/games-new.md.
"use strict";
const rigGames = (function () {
  const { el } = rig;
  const renderers = {};
  const titles = {};  // game name → title, from the registry (app.js fills it)

  // die body colours the game pages draw with
  const COLOURS = {
    red: "#d83a3a", orange: "#f08a1c", yellow: "#ffd43b", green: "#2fa84f", blue: "#2f6fe0", black: "#202020",
    white: "#f2f2f2", purple: "#8a4fd8", gray: "#9aa0a6",
  };

  function header(s) {
    const t = s.turn;
    let banner = rig.t("New game?");
    if (s.winner) banner = rig.t("{name} wins!", { name: s.winner });
    else if (s.game && s.outcome) banner = s.outcome.reason === "draw" ? rig.t("A draw") : rig.t("Game over");
    else if (t && t.roller) banner = rig.t("{name}'s turn", { name: t.roller });
    return { banner, phase: t ? t.phase : (s.outcome ? rig.t("game over") : "") };
  }

  const generic = {
    header,
    render(s, { main, side }) {
      const game = s.game;
      const t = s.turn;
      const totals = s.totals || {};
      main.replaceChildren(el("h2", { text: t ? rig.t("Turn {number}", { number: t.number }) : rig.t("No turn") }),
        t ? el("div", { class: "generic-turn", id: "generic-turn" },
          el("div", { class: "generic-phase", text: t.roller ? `${t.roller}: ${t.phase}` : t.phase }),
          el("div", { class: "hint", text: (t.dice || []).length ? rig.t("dice: {dice}", { dice: t.dice.join(", ") }) : rig.t("no dice yet") })) : null);
      side.replaceChildren(el("h2", { text: rig.t("Scores") }), el("table", { class: "totals", id: "generic-totals" },
        el("tbody", {}, (game ? game.players : []).map((p) => el("tr", { "data-player": p,
          class: `${game.whose_turn === p ? "roller" : ""} ${s.winner === p ? "leader" : ""}` },
          el("td", { class: "name", text: p }), el("td", { class: "total", text: totals[p] ?? 0 }))))));
    },
  };

  // one <script> or <link rel="stylesheet"> in the page; resolves when it loaded (or failed: the
  // game is then drawn by the generic renderer)
  function load(tag, attrs) {
    return new Promise((done) => {
      const node = el(tag, attrs);
      node.addEventListener("load", done);
      node.addEventListener("error", () => { console.error(`cannot load ${attrs.src || attrs.href}`); done(); });
      document.head.append(node);
    });
  }

  return {
    COLOURS,
    titles,
    title: (name) => titles[name] || name,
    register(name, renderer) {
      if (!renderer || typeof renderer.render !== "function") throw new TypeError(`${name}: a renderer needs render(state, board)`);
      renderers[name] = { header, ...renderer };
    },
    // the renderer of a game (the generic one for a game without a page script)
    get: (name) => renderers[name] || generic,
    // every registered game's page style and script, in menu order
    async loadPages(games) {
      await Promise.all(games.filter((g) => g.page && g.page.style).map((g) => load("link", { rel: "stylesheet", href: g.page.style })));
      for (const g of games) {
        titles[g.name] = g.title;
        if (g.page && g.page.script) await load("script", { src: g.page.script });
      }
    },
  };
})();
