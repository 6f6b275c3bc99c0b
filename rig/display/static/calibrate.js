// The calibration page: live preview, the ritual with progress, report, profiles, camera lock.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const { el } = rig;
  const swatch = { blue: "c-blue", pink: "c-pink", yellow: "c-yellow", blank: "c-blank", empty: "" };
  let status = null;
  let busy = false;

  rig.onLocked = () => new Promise((resolve) => {
    const dlg = $("dlg-pin");
    $("pin-input").value = "";
    dlg.onclose = () => resolve(dlg.returnValue === "ok" ? $("pin-input").value.trim() : null);
    dlg.showModal();
  });

  function refreshPreview() {
    const img = $("preview");
    const next = new Image();
    next.onload = () => { img.src = next.src; setTimeout(refreshPreview, 400); };
    next.onerror = () => setTimeout(refreshPreview, 1500);
    const outline = $("outline").checked ? 1 : 0;  // the dice labelled in the page's language
    const path = `/api/calibration/preview.jpg?outline=${outline}&lang=${encodeURIComponent(rig.lang)}&t=${Date.now()}`;
    rig.imageURL(path).then((url) => { next.src = url; }, () => setTimeout(refreshPreview, 1500));
  }

  async function act(path, body) {
    if (busy) return null;
    busy = true;
    document.body.classList.add("busy");
    try {
      const result = await rig.post(path, body);
      if (result.ok) await load();
      return result;
    } finally {
      busy = false;
      document.body.classList.remove("busy");
    }
  }

  function renderReport(report) {
    const box = $("report");
    box.replaceChildren();
    if (!report) { box.append(el("p", { class: "hint", text: rig.t("Capture the four faces, then fit.") })); return; }
    const said = (report.said && report.said[rig.lang]) || report;  // the report in the viewer's language
    box.append(el("p", { class: report.ok ? "ok" : "bad", text: said.summary || (report.ok ? rig.t("The classes separate well.") : rig.t("Some classes overlap.")) }));
    const warned = new Set(said.warnings || []);  // what the builder must read first, not at the end of the notes
    for (const line of warned) box.append(el("p", { class: "warn", text: line }));
    const rows = report.separation || [];
    if (rows.length) {
      box.append(el("table", {},
        el("thead", {}, el("tr", {}, el("th", { text: rig.t("classes") }), el("th", { text: rig.t("separation") }), el("th", { text: "" }))),
        el("tbody", {}, rows.map((row) => el("tr", {},
          el("td", { text: `${row.a} / ${row.b}` }),
          el("td", { text: typeof row.distance === "number" ? rig.num(row.distance, 1) : String(row.distance) }),
          el("td", { class: row.ok ? "ok" : "bad", text: row.ok ? rig.t("ok") : rig.t("too close") }))))));
    }
    for (const line of said.notes || []) if (!warned.has(line)) box.append(el("p", { class: "hint", text: line }));
  }

  // what the ritual asks for now, above the preview (in simulation the virtual table has turned the dice)
  function renderStepNow(s) {
    const steps = s.steps || [];
    const next = steps.find((step) => step.name === s.next);
    const box = $("step-now");
    box.dataset.step = next ? next.name : "";
    if (!next) {
      box.textContent = s.fitted ? rig.t("Fitted: read the separation report, then save the profile under a name.")
        : rig.t("Every step captured: Fit profile, then Save.");
      return;
    }
    box.textContent = rig.t("Now: {step}, then press capture.", { step: rig.t(next.label) })
      + (s.sim ? ` ${rig.t("(The virtual table has turned them for you.)")}` : "");
  }

  function render(s) {
    status = s;
    renderStepNow(s);
    const steps = s.steps || [];
    const required = steps.filter((step) => !step.optional);
    const done = required.filter((step) => step.captured).length;
    $("ritual-progress").textContent = rig.nt("{done} of {n} step captured", "{done} of {n} steps captured", required.length, { done });
    $("progress-fill").style.width = `${Math.round((100 * done) / Math.max(1, required.length))}%`;
    $("steps").replaceChildren(...steps.map((step) => el("li", {
      class: `step ${step.captured ? "done" : ""} ${step.optional ? "optional" : ""} ${step.name === s.next ? "next" : ""}`, "data-step": step.name },
      el("span", { class: `swatch ${swatch[step.name] || ""}` }),
      el("span", { class: "what", text: rig.t(step.label) }),
      el("span", { class: "state" }, el("button", { class: "capture", "data-step": step.name, text: step.captured ? rig.t("again") : rig.t("capture"),
        onclick: () => act("/api/calibration/capture", { step: step.name }) })))));
    $("btn-fit").disabled = done < required.length;
    $("btn-save").disabled = !s.fitted;
    renderReport(s.report);
    document.body.classList.toggle("has-report", Boolean(s.report));
    $("active-profile").textContent = s.active || rig.t("built-in colours");
    $("profiles").replaceChildren(...(s.profiles || []).map((name) => el("li", { class: name === s.active ? "active" : "" },
      el("span", { text: name }),
      el("button", { text: name === s.active ? rig.t("in use") : rig.t("use"), disabled: name === s.active,
        onclick: () => act("/api/calibration/restore", { name }) }))));
    const cam = s.camera || {};
    $("cam-state").textContent = `${cam.source || rig.t("camera")}: ${cam.connected === false ? rig.t("lost") : rig.t("live")}`;
    $("btn-lock").textContent = cam.locked ? rig.t("Unlock exposure and white balance") : rig.t("Lock exposure and white balance");
    $("lock-state").textContent = cam.detail || "";
    // libcamera's FocusFoM: larger is sharper; compare it while turning the lens or moving the camera
    const fom = cam.focus_fom;
    $("focus-state").textContent = (fom === null || fom === undefined) ? (cam.focus || "")
      : rig.t("Focus figure (FocusFoM) {fom}", { fom }) + (cam.focus ? " — " + cam.focus : "");
  }

  async function load() {
    try { render(await rig.getJSON("/api/calibration")); } catch (err) { /* retried by the timer */ }
  }

  $("btn-fit").onclick = () => act("/api/calibration/fit", {});
  $("btn-reset").onclick = () => act("/api/calibration/reset", {});
  $("btn-save").onclick = async () => {
    const name = $("profile-name").value.trim();
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(name)) { rig.toast(rig.t("A profile name is 1-40 letters, digits, '-' or '_'"), "bad"); return; }
    const result = await act("/api/calibration/save", { name });
    if (!result || !result.ok) return;
    // saved, not used yet: ask (the rig reads with it from the next frame once used)
    $("use-saved-text").textContent = rig.t("Saved “{name}”. Read the dice with it from now on?", { name });
    $("use-saved").dataset.name = name;
    $("use-saved").hidden = false;
  };
  $("btn-use-saved").onclick = async () => {
    const result = await act("/api/calibration/restore", { name: $("use-saved").dataset.name });
    if (result && result.ok) $("use-saved").hidden = true;
  };
  $("btn-keep-current").onclick = () => { $("use-saved").hidden = true; };
  $("btn-lock").onclick = () => act("/api/calibration/lock", { locked: !(status && status.camera && status.camera.locked) });

  // the scoreboard's "the light changed — recalibrate" leads here: start the ritual afresh
  const fresh = new URLSearchParams(location.search).has("recalibrate");
  rig.loadInfo().then(async () => {
    if (fresh) {
      await act("/api/calibration/reset", {});
      rig.toast(rig.t("The light changed: capture the four faces and the empty box again, then fit and save"), "info");
      history.replaceState(null, "", location.pathname);
    }
    load(); refreshPreview(); setInterval(load, 3000);
  });
})();
