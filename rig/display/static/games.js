// The scoreboard of the games beside Lunar Laser Frogs: Würfelblitz (the big sum, buzzers,
// the judge's pad, the discs), LEGO Lunar Command (the die's action big, the track to 11,
// score entry) and the Banana Moon start roll (the two start points). app.js calls
// rigGames.render(state) whenever the game is not frogs.
"use strict";
const rigGames = (function () {
  const $ = (id) => document.getElementById(id);
  const { el } = rig;
  const NAMES = {};  // game name → title, from the registry (GET /api/display's "games"; app.js fills it)
  const COLOURS = {
    red: "#d83a3a", orange: "#f08a1c", yellow: "#ffd43b", green: "#2fa84f", blue: "#2f6fe0", black: "#202020",
    white: "#f2f2f2", purple: "#8a4fd8", gray: "#9aa0a6",
  };
  const INK = { yellow: "#222", white: "#222", gray: "#111" };
  const PHASES = {
    blitz: {
      waiting: (t) => `${t.thrower}: shake and lift the box`,
      buzz: () => "first to press answers",
      judge: (t) => `${t.answerer} answers: enter the sum`,
      done: (t) => (t.timed_out ? "time up" : "round over: throw again"),
      over: () => "game over",
    },
    lego: {
      waiting: (t) => `${t.roller}: roll the LEGO Dice`,
      action: (t) => `${t.roller}: ${t.action ? t.action.action : ""}`,
      over: () => "game over",
    },
    banana: {
      waiting: () => "both roll one die",
      reroll: () => "a tie: roll again",
      decided: () => "decided",
      over: () => "start points set",
    },
  };
  let entry = "";

  const post = (body) => rig.post("/api/events", body);

  function dieFace(text) {
    const [color, shown] = text.split(":");
    if (!shown) return { color, pips: null, dot: null };
    if (shown.startsWith("dot=")) return { color, pips: null, dot: shown.slice(4) };
    return { color, pips: Number(shown), dot: null };
  }

  function pipDie(text, extra) {
    const d = dieFace(text);
    const style = `background: ${COLOURS[d.color] || "#555"}; color: ${INK[d.color] || "#fff"}`;
    const inside = d.dot
      ? el("span", { class: "gdot", style: `background: ${COLOURS[d.dot] || "#777"}`, title: `${d.dot} dot` })
      : el("span", { class: "gpips", text: d.pips });
    return el("div", { class: `gdie ${extra || ""}`, style, "data-face": text, title: text }, inside);
  }

  // ------------------------------------------------------------ Würfelblitz
  function renderBlitz(s, main, side) {
    const t = s.turn;
    const answer = t.answer;
    const big = el("div", { class: "big-answer", id: "blitz-answer", "data-answer": answer ? answer.answer : "" },
      answer ? String(answer.answer) : (t.dice.length ? "?" : "—"));
    const why = answer ? el("div", { class: "hint big-why", text: answer.swapped
      ? `twister: counted ${answer.counted.join(", ") || "nothing"}`
      : `counted ${answer.counted.join(", ") || "nothing"}${answer.excluded.length ? `; not ${answer.excluded.join(", ")}` : ""}` }) : null;
    const dice = el("div", { class: "gdice", id: "blitz-dice" }, t.dice.map((f) => pipDie(f)));
    const buzzes = el("ol", { class: "buzzes", id: "buzzes" }, t.buzzes.map((b) => el("li", {
      class: `buzz ${b.correct === true ? "right" : ""} ${b.correct === false ? "wrong" : ""} ${b.player === t.answerer ? "answering" : ""}`,
      "data-player": b.player },
      el("strong", { text: `${b.position}. ${b.player}` }),
      b.correct === true ? " ✓" : b.correct === false ? " ✗" : "",
      b.margin_text ? el("span", { class: "margin", text: ` ${b.margin_text}` }) : null)));
    main.replaceChildren(
      el("div", { class: "blitz-top" }, big, el("div", {}, why, t.problem ? el("div", { class: "notice info", text: t.problem }) : null)),
      dice, buzzes, judgePad(s));
    const per = s.game.whites_per_black || {};
    side.replaceChildren(el("h2", { text: "Discs" }), el("table", { class: "totals discs", id: "discs" },
      el("tbody", {}, s.game.players.map((p) => {
        const d = s.discs[p] || { white: 0, black: 0 };
        return el("tr", { "data-player": p, "data-white": d.white, "data-black": d.black,
          class: s.winner === p ? "leader" : "" },
          el("td", { class: "name", text: p }),
          el("td", { class: "disc-row" },
            Array.from({ length: d.black }, () => el("span", { class: "disc black", title: "black disc" })),
            Array.from({ length: d.white }, () => el("span", { class: "disc white", title: "white disc" })),
            per[p] && per[p] !== 3 ? el("span", { class: "hint", text: ` (${per[p]} white = 1 black)` }) : null));
      }))),
      el("div", { class: "hint", text: "3 white → 1 black · 3 black win · a wrong answer gives back a white" }));
  }

  function judgePad(s) {
    const t = s.turn;
    if (!["buzz", "judge", "done"].includes(t.phase)) return null;
    if (t.phase === "done") {
      return el("div", { class: "judge" }, el("button", { id: "btn-next-round", text: "Next round",
        onclick: () => post({ type: "turn_scored" }) }));
    }
    const keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0", "OK"];
    const who = t.answerer;
    return el("div", { class: "judge", id: "judge" },
      el("div", { class: "judge-head" }, who ? `${who} says:` : "Nobody has pressed yet.",
        el("span", { class: "entry", id: "judge-entry", text: entry || "…" })),
      who ? el("div", { class: "pad" }, keys.map((k) => el("button", { "data-key": k, text: k, onclick: () => padKey(k, who) }))) : null,
      el("div", { class: "judge-quick" },
        who ? el("button", { id: "btn-right", class: "right", text: "Right ✓", onclick: () => judge(who, { correct: true }) }) : null,
        who ? el("button", { id: "btn-wrong", class: "wrong", text: "Wrong ✗", onclick: () => judge(who, { correct: false }) }) : null,
        el("button", { id: "btn-timeout", text: "Time up", onclick: () => post({ type: "answer_timeout" }) })));
  }

  function padKey(k, who) {
    if (k === "⌫") entry = entry.slice(0, -1);
    else if (k === "OK") { if (entry !== "") judge(who, { answer: Number(entry) }); return; }
    else if (entry.length < 2) entry += k;
    const box = $("judge-entry");
    if (box) box.textContent = entry || "…";
  }

  async function judge(player, verdict) {
    entry = "";
    await post({ type: "answer_judged", player, ...verdict });
  }

  // ------------------------------------------------------------ LEGO Lunar Command
  function renderLego(s, main, side) {
    const t = s.turn;
    const a = t.action;
    const face = a ? a.face : null;
    main.replaceChildren(
      el("div", { class: "big-action", id: "lego-action", "data-action": a ? a.action : "",
        style: face ? `border-color: ${COLOURS[face] || "#777"}` : "" },
        face ? el("span", { class: "lego-face", style: `background: ${COLOURS[face] || "#777"}` }) : null,
        el("div", { class: "action-name", text: a ? a.action.toUpperCase() : "roll the LEGO Dice" }),
        a ? el("div", { class: "action-label", text: a.label }) : null),
      el("div", { class: "lego-entry" },
        el("div", { class: "hint", text: "A closed station: robots, astronauts and each player's coloured pieces in its outer wall" }),
        el("label", {}, "robots ", el("input", { id: "st-robots", type: "number", min: 0, max: 9, value: 0 })),
        el("label", {}, "astronauts ", el("input", { id: "st-astronauts", type: "number", min: 0, max: 9, value: 0 })),
        s.game.players.map((p, i) => el("label", {}, `${p}'s pieces `, el("input", { id: `st-pieces-${i}`, type: "number", min: 0, max: 20, value: 0 }))),
        el("button", { id: "btn-station", text: "Score station", onclick: () => scoreStation(s.game.players) })),
      el("div", { class: "lego-entry" }, s.game.players.map((p) => el("span", { class: "lego-player" }, el("strong", { text: p }),
        el("button", { "data-points": p, text: "+1 point", onclick: () => post({ type: "points_scored", player: p, points: 1 }) }),
        el("button", { "data-abduct": p, text: "UFO +2", onclick: () => post({ type: "points_scored", player: p, points: 2, detail: "UFO abduction" }) }),
        el("button", { "data-piece": p, text: "+piece", onclick: () => post({ type: "piece_built", player: p, count: 1 }) })))),
      el("div", { class: "lego-entry" },
        t.phase === "action" ? el("button", { id: "btn-next-turn", text: "Next turn", onclick: () => post({ type: "turn_scored" }) }) : null,
        el("button", { id: "btn-out", text: "Out of pieces: end", onclick: () => post({ type: "game_ended", reason: "out_of_pieces" }) })));
    const track = s.track;
    side.replaceChildren(el("h2", { text: `Track to ${track.target}` }), el("table", { class: "totals", id: "track" },
      el("tbody", {}, s.game.players.map((p) => el("tr", { "data-player": p, class: `${s.game.whose_turn === p ? "roller" : ""} ${s.winner === p ? "leader" : ""}` },
        el("td", { class: "name", text: p }),
        el("td", { class: "bar-cell" }, el("span", { class: "track-bar", style: `width: ${Math.min(100, 100 * track.points[p] / track.target)}%` })),
        el("td", { class: "total", text: track.points[p] }),
        el("td", { class: "delta", title: "coloured pieces built", text: `${track.pieces_built[p]} pc` }))))),
      el("div", { class: "hint", text: (s.scoring || []).slice(-3).map((e) => `${Object.entries(e.points).map(([k, v]) => `${k} +${v}`).join(", ")} (${e.what})`).join(" · ") }));
  }

  async function scoreStation(players) {
    const num = (id) => Number($(id).value || 0);
    const pieces = {};
    players.forEach((p, i) => { pieces[p] = num(`st-pieces-${i}`); });
    await post({ type: "station_scored", robots: num("st-robots"), astronauts: num("st-astronauts"), pieces });
  }

  // ------------------------------------------------------------ Banana Moon
  function renderBanana(s, main, side) {
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

  const RENDER = { blitz: renderBlitz, lego: renderLego, banana: renderBanana };

  return {
    NAMES,
    phaseText(s) {
      const t = s.turn;
      const table = PHASES[s.game.game] || {};
      return t ? (table[t.phase] || ((x) => x.phase))(t) : "";
    },
    banner(s) {
      const t = s.turn;
      if (s.winner) return `${s.winner} wins!`;
      if (s.game.game === "banana") {
        if (s.outcome && s.outcome.outcome) return `${s.outcome.outcome.starter} starts`;
        return "Start roll";
      }
      if (s.outcome) return s.outcome.reason === "draw" ? "A draw" : "Game over";
      if (s.game.game === "blitz") return t.answer ? `Sum: ${t.answer.answer}` : `Round ${t.number}`;
      return t ? `${t.roller}'s turn` : "";
    },
    render(s) {
      const main = $("gb-main");
      const side = $("gb-side");
      document.body.dataset.game = s.game.game;
      (RENDER[s.game.game] || (() => {}))(s, main, side);
      if (s.turn && s.turn.phase !== "judge") entry = "";
    },
  };
})();
