// Würfelblitz on the page: the big sum, the dice, the buzzes in order, the judge's pad and the
// discs (the renderer interface: rig/display/static/games.js, docs/games-new.md).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const { el } = rig;
  const COLOURS = rigGames.COLOURS;
  const INK = { yellow: "#222", white: "#222", gray: "#111" };
  const PHASES = {
    waiting: (t) => rig.t("{name}: shake and lift the box", { name: t.thrower }),
    buzz: () => rig.t("first to press answers"),
    judge: (t) => rig.t("{name} answers: enter the sum", { name: t.answerer }),
    done: (t) => (t.timed_out ? rig.t("time up") : rig.t("round over: throw again")),
    over: () => rig.t("game over"),
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
      ? el("span", { class: "gdot", style: `background: ${COLOURS[d.dot] || "#777"}`, title: rig.t("{colour} dot", { colour: d.dot }) })
      : el("span", { class: "gpips", text: d.pips });
    return el("div", { class: `gdie ${extra || ""}`, style, "data-face": text, title: text }, inside);
  }

  function render(s, { main, side }) {
    const t = s.turn;
    const answer = t.answer;
    const big = el("div", { class: "big-answer", id: "blitz-answer", "data-answer": answer ? answer.answer : "" },
      answer ? String(answer.answer) : (t.dice.length ? "?" : "—"));
    const why = answer ? el("div", { class: "hint big-why", text: answer.swapped
      ? rig.t("twister: counted {dice}", { dice: answer.counted.join(", ") || rig.t("nothing") })
      : rig.t("counted {dice}", { dice: answer.counted.join(", ") || rig.t("nothing") })
        + (answer.excluded.length ? `; ${rig.t("not {dice}", { dice: answer.excluded.join(", ") })}` : "") }) : null;
    const dice = el("div", { class: "gdice", id: "blitz-dice" }, t.dice.map((f) => pipDie(f)));
    const buzzes = el("ol", { class: "buzzes", id: "buzzes" }, t.buzzes.map((b) => el("li", {
      class: `buzz ${b.correct === true ? "right" : ""} ${b.correct === false ? "wrong" : ""} ${b.player === t.answerer ? "answering" : ""}`,
      "data-player": b.player },
      el("strong", { text: `${b.position}. ${b.player}` }),
      b.correct === true ? " ✓" : b.correct === false ? " ✗" : "",
      b.margin_text ? el("span", { class: "margin", text: ` ${b.margin_text}` }) : null)));
    main.replaceChildren(
      el("div", { class: "blitz-top" }, big, el("div", {}, why, t.problem ? el("div", { class: "notice info", text: t.problem }) : null)),
      dice, buzzes, judgePad(s) || "");  // (no pad while the round waits for the throw: not the text "null")
    const per = s.game.whites_per_black || {};
    side.replaceChildren(el("h2", { text: rig.t("Discs") }), el("table", { class: "totals discs", id: "discs" },
      el("tbody", {}, s.game.players.map((p) => {
        const d = s.discs[p] || { white: 0, black: 0 };
        return el("tr", { "data-player": p, "data-white": d.white, "data-black": d.black,
          class: s.winner === p ? "leader" : "" },
          el("td", { class: "name", text: p }),
          el("td", { class: "disc-row" },
            Array.from({ length: d.black }, () => el("span", { class: "disc black", title: rig.t("black disc") })),
            Array.from({ length: d.white }, () => el("span", { class: "disc white", title: rig.t("white disc") })),
            per[p] && per[p] !== 3 ? el("span", { class: "hint", text: ` (${rig.t("{n} white = 1 black", { n: per[p] })})` }) : null));
      }))),
      el("div", { class: "hint", text: rig.t("3 white → 1 black · 3 black win · a wrong answer gives back a white") }));
    if (t.phase !== "judge") entry = "";
  }

  function judgePad(s) {
    const t = s.turn;
    if (!["buzz", "judge", "done"].includes(t.phase)) return null;
    if (t.phase === "done") {
      return el("div", { class: "judge" }, el("button", { id: "btn-next-round", text: rig.t("Next round"),
        onclick: () => post({ type: "turn_scored" }) }));
    }
    const keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0", "OK"];
    const who = t.answerer;
    return el("div", { class: "judge", id: "judge" },
      el("div", { class: "judge-head" }, who ? rig.t("{name} says:", { name: who }) : rig.t("Nobody has pressed yet."),
        el("span", { class: "entry", id: "judge-entry", text: entry || "…" })),
      who ? el("div", { class: "pad" }, keys.map((k) => el("button", { "data-key": k, text: k, onclick: () => padKey(k, who) }))) : null,
      el("div", { class: "judge-quick" },
        who ? el("button", { id: "btn-right", class: "right", text: rig.t("Right ✓"), onclick: () => judge(who, { correct: true }) }) : null,
        who ? el("button", { id: "btn-wrong", class: "wrong", text: rig.t("Wrong ✗"), onclick: () => judge(who, { correct: false }) }) : null,
        el("button", { id: "btn-timeout", text: rig.t("Time up"), onclick: () => post({ type: "answer_timeout" }) })));
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

  function header(s) {
    const t = s.turn;
    let banner = t ? rig.t("{name}'s turn", { name: t.roller }) : "";
    if (s.winner) banner = rig.t("{name} wins!", { name: s.winner });
    else if (s.outcome) banner = s.outcome.reason === "draw" ? rig.t("A draw") : rig.t("Game over");
    else if (t) banner = t.answer ? rig.t("Sum: {sum}", { sum: t.answer.answer }) : rig.t("Round {number}", { number: t.number });
    return { banner, phase: t ? (PHASES[t.phase] || ((x) => x.phase))(t) : "" };
  }

  // the new-game form: the variant, the white dice, the handicap, the answer time
  function fields() {
    return [
      el("label", {}, rig.t("Variant"), " ", el("select", { id: "new-variant" },
        el("option", { value: "standard", text: rig.t("standard") }), el("option", { value: "twister", text: rig.t("Hirnverdreher (twister)") }))),
      el("label", {}, rig.t("White dice"), " ", el("select", { id: "new-white" }, el("option", { text: "2" }), el("option", { text: "3" }))),
      el("label", {}, rig.t("Handicap"), " ", el("input", { id: "new-handicap", placeholder: "Ben=1, Cleo=2", title: rig.t("white discs per black disc, per player") })),
      el("label", {}, rig.t("Answer time (s)"), " ", el("input", { id: "new-timeout", type: "number", min: 1, max: 600, value: 30 })),
    ];
  }

  function read() {
    const options = { variant: $("new-variant").value, white_dice: Number($("new-white").value) };
    const timeout = $("new-timeout").value.trim();
    if (timeout) options.answer_timeout_s = Number(timeout);
    const handicap = {};
    for (const part of $("new-handicap").value.split(",").map((p) => p.trim()).filter(Boolean)) {
      const [name, n] = part.split("=").map((x) => x.trim());
      handicap[name] = Number(n);
    }
    if (Object.keys(handicap).length) options.handicap = handicap;
    return options;
  }

  rigGames.register("blitz", { render, header, options: { fields, read } });
})();
