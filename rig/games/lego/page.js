// LEGO Lunar Command on the page: the die's action big, score entry (stations, points, UFO
// abductions, pieces) and the track to 11 (the renderer interface: rig/display/static/games.js).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const { el } = rig;
  const COLOURS = rigGames.COLOURS;
  const PHASES = {
    waiting: (t) => rig.t("{name}: roll the LEGO Dice", { name: t.roller }),
    action: (t) => `${t.roller}: ${t.action ? (ACTIONS[t.action.action] || [t.action.action])[0] : ""}`,
    over: () => rig.t("game over"),
  };

  const post = (body) => rig.post("/api/events", body);
  // the die's actions and what each lets the player do (rig/games/lego/rules.py), in the page's language
  const ACTIONS = {
    wall: [rig.t("wall"), rig.t("Build a white wall")],
    piece: [rig.t("piece"), rig.t("Build a coloured piece: dome, airlock door or antennae")],
    spacewalk: [rig.t("spacewalk"), rig.t("Spacewalk: move robots/astronauts four spaces in all")],
    ufo: [rig.t("ufo"), rig.t("UFO: move one UFO to a free movement space")],
  };

  function render(s, { main, side }) {
    const t = s.turn;
    const a = t.action;
    const face = a ? a.face : null;
    main.replaceChildren(
      el("div", { class: "big-action", id: "lego-action", "data-action": a ? a.action : "",
        style: face ? `border-color: ${COLOURS[face] || "#777"}` : "" },
        face ? el("span", { class: "lego-face", style: `background: ${COLOURS[face] || "#777"}` }) : null,
        el("div", { class: "action-name", text: a ? (ACTIONS[a.action] || [a.action])[0].toUpperCase() : rig.t("roll the LEGO Dice") }),
        a ? el("div", { class: "action-label", text: (ACTIONS[a.action] || [])[1] || a.label }) : null),
      el("div", { class: "lego-entry" },
        el("div", { class: "hint", text: rig.t("A closed station: robots, astronauts and each player's coloured pieces in its outer wall") }),
        el("label", {}, rig.t("robots"), " ", el("input", { id: "st-robots", type: "number", min: 0, max: 9, value: 0 })),
        el("label", {}, rig.t("astronauts"), " ", el("input", { id: "st-astronauts", type: "number", min: 0, max: 9, value: 0 })),
        s.game.players.map((p, i) => el("label", {}, rig.t("{name}'s pieces", { name: p }), " ", el("input", { id: `st-pieces-${i}`, type: "number", min: 0, max: 20, value: 0 }))),
        el("button", { id: "btn-station", text: rig.t("Score station"), onclick: () => scoreStation(s.game.players) })),
      el("div", { class: "lego-entry" }, s.game.players.map((p) => el("span", { class: "lego-player" }, el("strong", { text: p }),
        el("button", { "data-points": p, text: rig.t("+1 point"), onclick: () => post({ type: "points_scored", player: p, points: 1 }) }),
        el("button", { "data-abduct": p, text: "UFO +2", onclick: () => post({ type: "points_scored", player: p, points: 2, detail: "UFO abduction" }) }),
        el("button", { "data-piece": p, text: rig.t("+piece"), onclick: () => post({ type: "piece_built", player: p, count: 1 }) })))),
      el("div", { class: "lego-entry" },
        t.phase === "action" ? el("button", { id: "btn-next-turn", text: rig.t("Next turn"), onclick: () => post({ type: "turn_scored" }) }) : null,
        el("button", { id: "btn-out", text: rig.t("Out of pieces: end"), onclick: () => post({ type: "game_ended", reason: "out_of_pieces" }) })));
    if (s.outcome) {  // the game is over: nothing more to score here (New game starts the next)
      for (const control of main.querySelectorAll("button, input")) control.disabled = true;
    }
    const track = s.track;
    side.replaceChildren(el("h2", { text: rig.t("Track to {n}", { n: track.target }) }), el("table", { class: "totals", id: "track" },
      el("tbody", {}, s.game.players.map((p) => el("tr", { "data-player": p, class: `${s.game.whose_turn === p ? "roller" : ""} ${s.winner === p ? "leader" : ""}` },
        el("td", { class: "name", text: p }),
        el("td", { class: "bar-cell" }, el("span", { class: "track-bar", style: `width: ${Math.min(100, 100 * track.points[p] / track.target)}%` })),
        el("td", { class: "total", text: track.points[p] }),
        el("td", { class: "delta", title: rig.t("coloured pieces built"), text: rig.t("{n} pc", { n: track.pieces_built[p] }) }))))),
      el("div", { class: "hint", text: (s.scoring || []).slice(-3).map((e) => `${Object.entries(e.points).map(([k, v]) => `${k} +${v}`).join(", ")} (${e.what})`).join(" · ") }));
  }

  async function scoreStation(players) {
    const num = (id) => Number($(id).value || 0);
    const pieces = {};
    players.forEach((p, i) => { pieces[p] = num(`st-pieces-${i}`); });
    await post({ type: "station_scored", robots: num("st-robots"), astronauts: num("st-astronauts"), pieces });
  }

  function header(s) {
    const t = s.turn;
    let banner = t ? rig.t("{name}'s turn", { name: t.roller }) : "";
    if (s.winner) banner = rig.t("{name} wins!", { name: s.winner });
    else if (s.outcome) banner = s.outcome.reason === "draw" ? rig.t("A draw") : rig.t("Game over");
    return { banner, phase: t ? (PHASES[t.phase] || ((x) => x.phase))(t) : "" };
  }

  // the new-game form: the points to win
  const fields = () => [el("label", {}, rig.t("Points to win"), " ", el("input", { id: "new-target", type: "number", min: 1, max: 99, value: 11 }))];
  function read() {
    const target = $("new-target").value.trim();
    return target ? { target: Number(target) } : {};
  }

  // the action's word as big as the board lets it be: shrunk in steps until it fits (no word cut)
  const FIT_STEPS = [1, 0.85, 0.72, 0.62, 0.54, 0.47, 0.4];
  function layout() {
    const name = document.querySelector("#lego-action .action-name");
    if (!name) return;
    for (const fit of FIT_STEPS) {
      name.style.setProperty("--fit", fit);
      if (name.scrollWidth <= name.clientWidth + 1) return;
    }
  }

  rigGames.register("lego", { render, header, layout, options: { fields, read } });
})();
