// The league link on the scoreboard: shown only when the rig publishes to a league ([league] in the
// config): GET /api/rig carries {"league": {connected, waiting, error, ...}}. Separate from app.js.
"use strict";

(function () {
  let badge = null;

  function show(link) {
    document.body.dataset.league = link ? "linked" : "none";  // the first answer is in (tests wait on it)
    if (!link) { if (badge) badge.hidden = true; return; }
    if (!badge) {
      badge = document.createElement("div");
      badge.id = "league-link";
      badge.className = "league-link";
      badge.setAttribute("role", "status");
      (document.querySelector("header.bar") || document.body).append(badge);
    }
    badge.hidden = false;
    let text, kind;
    if (link.connected && !link.error) {
      kind = link.waiting ? "sending" : "ok";
      text = link.waiting ? rig.t("League: sending {n}", { n: link.waiting }) : rig.t("League ✓");
    } else {
      kind = "away";
      text = link.waiting ? rig.t("League offline · {n} waiting", { n: link.waiting }) : rig.t("League offline");
    }
    badge.textContent = text;
    badge.dataset.state = kind;
    badge.title = link.error || rig.t("{table} → {broker}: {acked} of {logged} events acknowledged",
      { table: link.table, broker: link.broker, acked: link.acked, logged: link.logged })
      + (kind === "away" ? ` ${rig.t("(the game goes on; nothing is lost)")}` : "");
  }

  async function poll() {
    try {
      const response = await fetch("/api/rig", { cache: "no-store" });
      if (response.ok) show((await response.json()).league);
    } catch (err) { /* the rig's own page shows that it is away */ }
  }

  poll();
  setInterval(poll, 2000);
})();
