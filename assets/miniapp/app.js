// The Mini App's page: the user's open tasks by day, create with a live preview, Done / Snooze /
// Delete with Undo, edit in place, settings (the zone typed, or found from where the user is by the
// browser's geolocation, which Telegram's webviews may deny). Vanilla JavaScript, no build step, no
// inline code, no Telegram script (the page loads only its own, CSP script-src 'self'). Telegram's
// launch data (initData) comes from the URL fragment (#tgWebAppData=…&tgWebAppThemeParams=…) as Telegram passes it; every
// request to the API carries it (Authorization: tma <initData>). Every label comes from the
// API's `strings`; user text is only ever set as text, never as markup.
"use strict";

(() => {
  const state = { initData: "", strings: {}, settings: null, undoToken: null, previewSeq: 0 };
  const byId = (id) => document.getElementById(id);
  const t = (key) => state.strings[key] || key;

  /** An answer of the API other than 2xx, with its JSON body (`{"error", …}`) if any. */
  class ApiError extends Error {
    constructor(status, body) {
      super((body && body.error) || "HTTP " + status);
      this.status = status;
      this.body = body || {};
    }
  }

  // ----- Telegram -----

  function launchParams() {
    const fragment = new URLSearchParams(window.location.hash.slice(1));
    let theme;
    try {
      theme = JSON.parse(fragment.get("tgWebAppThemeParams") || "{}");
    } catch (_) {
      theme = {};
    }
    return { initData: fragment.get("tgWebAppData") || "", theme };
  }

  /** Tells Telegram's client something (`web_app_ready`, `web_app_expand`), as its script does. */
  function postEvent(eventType, eventData) {
    const data = JSON.stringify(eventData || {});
    try {
      if (window.TelegramWebviewProxy) {
        window.TelegramWebviewProxy.postEvent(eventType, data);
      } else if (window.parent !== window) {
        window.parent.postMessage(JSON.stringify({ eventType, eventData: eventData || {} }), "https://web.telegram.org");
      }
    } catch (_) {
      // Outside Telegram there is no one to tell.
    }
  }

  function luminance(hex) {
    const m = /^#?([0-9a-f]{6})$/i.exec(hex || "");
    if (!m) return null;
    const n = parseInt(m[1], 16);
    return (0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255)) / 255;
  }

  /** Telegram's theme as CSS variables --tg-theme-*; dark defaults when its background is dark. */
  function applyTheme(theme) {
    const root = document.documentElement;
    for (const [key, value] of Object.entries(theme || {})) {
      if (/^[a-z_]+$/.test(key) && /^#[0-9a-f]{3,8}$/i.test(String(value))) {
        root.style.setProperty("--tg-theme-" + key.replace(/_/g, "-"), value);
      }
    }
    const light = luminance(theme && theme.bg_color);
    const dark = light !== null && light < 0.5;
    root.dataset.theme = dark ? "dark" : "light";
  }

  // ----- the API -----

  async function api(method, path, body) {
    const headers = { Authorization: "tma " + state.initData };
    const init = { method, headers };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch("api/" + path, init);
    } catch (_) {
      throw new ApiError(0, { error: t("app-err-network") });
    }
    let json = null;
    try {
      json = await response.json();
    } catch (_) {
      json = null;
    }
    if (!response.ok) throw new ApiError(response.status, json);
    return json;
  }

  // ----- building blocks -----

  function el(tag, props, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key === "class") node.className = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (value === true) node.setAttribute(key, "");
      else node.setAttribute(key, value);
    }
    for (const child of children || []) if (child) node.append(child);
    return node;
  }

  function button(labelKey, action, onclick, extra) {
    return el("button", Object.assign({ type: "button", text: t(labelKey), dataset: { action }, onclick }, extra || {}));
  }

  function translatePage() {
    document.documentElement.lang = (state.settings && state.settings.lang) || "en";
    document.title = t("app-title");
    for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
    byId("create-text").placeholder = t("app-new-placeholder");
  }

  // ----- the status bar with Undo -----

  function say(message, undoToken) {
    const bar = byId("status");
    const undo = byId("undo");
    state.undoToken = undoToken || null;
    byId("status-text").textContent = message || "";
    undo.hidden = !undoToken;
    bar.classList.toggle("idle", !message);
    if (undoToken) undo.focus();
  }

  async function undoLast() {
    const token = state.undoToken;
    if (!token) return;
    try {
      await api("POST", "undo/" + encodeURIComponent(token));
      say(t("app-undone-toast"));
    } catch (error) {
      say(error.message);
    }
    await loadTasks();
  }

  function failed(error) {
    if (error.status === 401) return fatal(error.message);
    say(error.body.error || t("app-err-server"));
  }

  function fatal(message) {
    byId("loading").hidden = true;
    byId("app").hidden = true;
    byId("status").classList.add("idle");
    const box = byId("failure");
    box.textContent = message;
    box.hidden = false;
  }

  // ----- the tasks -----

  async function loadTasks() {
    let data;
    try {
      data = await api("GET", "tasks");
    } catch (error) {
      return failed(error);
    }
    renderSections(data.sections || []);
  }

  function renderSections(sections) {
    const host = byId("sections");
    host.replaceChildren();
    let any = false;
    for (const section of sections) {
      if (!section.tasks || section.tasks.length === 0) continue;
      any = true;
      const headingId = "section-" + section.key;
      host.append(
        el("section", { "aria-labelledby": headingId, dataset: { section: section.key } }, [
          el("h2", { id: headingId, class: section.key, text: section.title }),
          el("ul", { class: "section-list" }, section.tasks.map((task) => taskItem(task, section.key))),
        ]),
      );
    }
    byId("empty").hidden = any;
  }

  function meta(labelKey, value, cls) {
    if (!value) return null;
    return el("span", { class: cls }, [el("span", { class: "sr-only", text: t(labelKey) + ": " }), value]);
  }

  function taskItem(task, sectionKey) {
    const textId = "task-" + task.id;
    const item = el("li", { class: "task", dataset: { taskId: String(task.id) } });
    const choicesId = "snooze-" + task.id;
    const described = { "aria-describedby": textId };
    const choices = el(
      "div",
      { id: choicesId, class: "snooze-choices", hidden: true },
      SNOOZES.map(([key, minutes]) =>
        button(key, "snooze-" + minutes, () => act(task, "snooze", { minutes }), described),
      ),
    );
    const snooze = button("app-button-snooze", "snooze", () => {
      const open = choices.hidden;
      choices.hidden = !open;
      snooze.setAttribute("aria-expanded", String(open));
      if (open) choices.querySelector("button").focus();
    }, Object.assign({ "aria-expanded": "false", "aria-controls": choicesId }, described));
    item.append(
      el("p", { id: textId, class: "task-text", text: task.text }),
      el("p", { class: "task-meta" }, [
        meta("app-field-when", task.due, sectionKey === "overdue" ? "overdue" : ""),
        meta("app-field-repeat", task.repeat ? "↻ " + task.repeat : null),
        task.next_reminder && task.next_reminder !== task.due
          ? el("span", { text: t("app-next-reminder") + ": " + task.next_reminder })
          : null,
      ]),
      el("div", { class: "task-actions" }, [
        button("app-button-done", "done", () => act(task, "done"), Object.assign({ class: "primary" }, described)),
        snooze,
        button("app-button-edit", "edit", () => edit(item, task), described),
        button("app-button-delete", "delete", () => act(task, "delete"), Object.assign({ class: "danger" }, described)),
      ]),
      choices,
    );
    return item;
  }

  const SNOOZES = [["app-snooze-10m", 10], ["app-snooze-1h", 60], ["app-snooze-3h", 180], ["app-snooze-1d", 1440]];

  const DONE_MESSAGES = { done: "app-done-toast", snooze: "app-snoozed-toast", delete: "app-deleted-toast" };

  /** Done, Snooze or Delete: the list reloaded, the status bar with Undo. */
  async function act(task, action, extra) {
    const body = Object.assign({ version: task.version }, extra || {});
    try {
      const result =
        action === "delete"
          ? await api("DELETE", "tasks/" + task.id, body)
          : await api("POST", "tasks/" + task.id + "/" + action, body);
      await loadTasks();
      say(t(DONE_MESSAGES[action]), result && result.undo);
    } catch (error) {
      failed(error);
      if (error.status !== 401) await loadTasks();
    }
  }

  function field(id, labelKey, input) {
    input.id = id;
    return [el("label", { for: id, text: t(labelKey) }), input];
  }

  /** Edit in place: text, when, repeat and lead; a version mismatch (409) says so in the form. */
  function edit(item, task) {
    const base = "edit-" + task.id + "-";
    const text = el("input", { type: "text", name: "text", maxlength: "1000", value: task.text });
    const when = el("input", { type: "text", name: "when", placeholder: task.due || "" });
    const repeat = el("input", { type: "text", name: "repeat", value: task.repeat || "", placeholder: t("app-repeat-none") });
    const lead = el("input", { type: "number", name: "lead_minutes", min: "0", step: "1", value: String(task.lead_minutes ?? 0) });
    const error = el("p", { class: "error", role: "alert", tabindex: "-1", hidden: true });
    let current = task;
    const form = el("form", { class: "edit", novalidate: true }, [
      ...field(base + "text", "app-field-text", text),
      ...field(base + "when", "app-field-when", when),
      ...field(base + "repeat", "app-field-repeat", repeat),
      ...field(base + "lead", "app-field-lead", lead),
      error,
      el("div", { class: "edit-actions" }, [
        el("button", { type: "submit", class: "primary", text: t("app-button-save"), dataset: { action: "save" } }),
        button("app-button-cancel", "cancel", () => loadTasks()),
      ]),
    ]);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const body = { version: current.version };
      if (text.value.trim() !== current.text) body.text = text.value.trim();
      if (when.value.trim()) body.when = when.value.trim();
      if (repeat.value.trim() !== (current.repeat || "")) body.repeat = repeat.value.trim();
      const minutes = parseInt(lead.value, 10);
      if (!Number.isNaN(minutes) && minutes !== current.lead_minutes) body.lead_minutes = minutes;
      try {
        await api("PATCH", "tasks/" + task.id, body);
        await loadTasks();
        say(t("app-saved-toast"));
      } catch (failure) {
        if (failure.status === 401) return fatal(failure.message);
        if (failure.status === 404) return failed(failure);
        if (failure.status === 409 && failure.body.task) current = failure.body.task;
        error.textContent = failure.body.error || t("app-err-server");
        error.hidden = false;
        error.focus();
      }
    });
    item.replaceChildren(form);
    text.focus();
    text.setSelectionRange(text.value.length, text.value.length);
  }

  // ----- creating -----

  let previewTimer = null;

  function schedulePreview() {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(preview, 350);
  }

  async function preview() {
    const text = byId("create-text").value.trim();
    const box = byId("preview");
    const seq = ++state.previewSeq;
    if (!text) return box.replaceChildren();
    let result;
    try {
      result = await api("POST", "preview", { text });
    } catch (error) {
      if (seq !== state.previewSeq) return;
      if (error.status === 401) return fatal(error.message);
      return box.replaceChildren(el("p", { class: "error", text: error.body.error || t("app-err-server") }));
    }
    if (seq !== state.previewSeq) return;
    const rows = [
      ["app-field-text", result.text],
      ["app-preview-due", result.due],
      ["app-preview-repeat", result.repeat || t("app-repeat-none")],
    ];
    if (result.assumed && result.assumed.length) rows.push(["app-preview-assumed", result.assumed.join("; ")]);
    box.replaceChildren(
      el("dl", {}, rows.flatMap(([key, value]) => [el("dt", { text: t(key) }), el("dd", { text: value || "—" })])),
    );
  }

  async function create(event) {
    event.preventDefault();
    const input = byId("create-text");
    const text = input.value.trim();
    if (!text) return input.focus();
    state.previewSeq++;
    clearTimeout(previewTimer);
    try {
      await api("POST", "tasks", { text });
    } catch (error) {
      if (error.status === 401) return fatal(error.message);
      byId("preview").replaceChildren(el("p", { class: "error", text: error.body.error || t("app-err-server") }));
      return;
    }
    input.value = "";
    byId("preview").replaceChildren();
    await loadTasks();
    say(t("app-created-toast"));
  }

  // ----- settings -----

  function fillSettings(settings) {
    byId("settings-zone").value = settings.zone || "";
    byId("settings-lang").value = settings.lang || "en";
    byId("settings-lead").value = String(settings.lead_minutes ?? 0);
    byId("settings-agenda").value = settings.agenda || "";
  }

  async function saveSettings(event) {
    event.preventDefault();
    const error = byId("settings-error");
    // Only what changed is sent: the chat confirms each setting the request changes.
    const was = state.settings || {};
    const body = {};
    const lang = byId("settings-lang").value;
    if (lang !== was.lang) body.lang = lang;
    const parsed = parseInt(byId("settings-lead").value, 10);
    const lead = Number.isNaN(parsed) ? 0 : parsed;
    if (lead !== (was.lead_minutes ?? 0)) body.lead_minutes = lead;
    const agenda = byId("settings-agenda").value || null;
    if (agenda !== (was.agenda || null)) body.agenda = agenda;
    const zone = byId("settings-zone").value.trim();
    if (zone && zone !== was.zone) body.zone = zone;
    if (Object.keys(body).length === 0) {
      error.hidden = true;
      return say(t("app-saved-toast"));
    }
    try {
      await api("PUT", "settings", body);
    } catch (failure) {
      if (failure.status === 401) return fatal(failure.message);
      error.textContent = failure.body.error || t("app-err-server");
      error.hidden = false;
      return;
    }
    error.hidden = true;
    await start();
    say(t("app-saved-toast"));
  }

  // ----- the zone from where the user is -----

  /** Whether the browser offers geolocation (only in a secure context). */
  function canLocate() {
    return Boolean(navigator.geolocation && window.isSecureContext !== false);
  }

  /** Where the user is, `{latitude, longitude}`; rejects with the key of the message to show. */
  function locate() {
    if (!navigator.geolocation) return Promise.reject("app-location-unsupported");
    return new Promise((resolve, reject) => {
      navigator.geolocation.getCurrentPosition(
        (position) => resolve({ latitude: position.coords.latitude, longitude: position.coords.longitude }),
        (error) => reject(error.code === 1 ? "app-location-denied" : "app-location-failed"),
        { enableHighAccuracy: false, timeout: 20000, maximumAge: 600000 },
      );
    });
  }

  /** "Use my location": the zone of where the user is, set as the chat's location sets it. */
  async function useLocation() {
    const button = byId("settings-locate");
    const error = byId("settings-error");
    button.disabled = true;
    say(t("app-location-finding"));
    try {
      let point;
      try {
        point = await locate();
      } catch (key) {
        return say(t(typeof key === "string" ? key : "app-location-failed"));
      }
      try {
        await api("PUT", "settings", { location: point });
      } catch (failure) {
        if (failure.status === 401) return fatal(failure.message);
        error.textContent = failure.body.error || t("app-err-server");
        error.hidden = false;
        return say(error.textContent);
      }
      error.hidden = true;
      await start();
      const zone = (state.settings && state.settings.zone) || "";
      say(t("app-location-set") + " " + zone);
    } finally {
      button.disabled = false;
    }
  }

  // ----- start -----

  async function start() {
    let me;
    try {
      me = await api("GET", "me");
    } catch (error) {
      return fatal(error.message);
    }
    state.strings = me.strings || {};
    state.settings = me.settings || {};
    translatePage();
    fillSettings(state.settings);
    await loadTasks();
    if (byId("failure").hidden) {
      byId("loading").hidden = true;
      byId("app").hidden = false;
    }
  }

  /** The task whose card's Open button opened the app (`?task=<id>`): scrolled to and focused. */
  function showLaunchedTask() {
    const id = new URLSearchParams(window.location.search).get("task");
    if (!id || !/^[0-9]+$/.test(id)) return;
    const item = document.querySelector('li.task[data-task-id="' + id + '"]');
    if (!item) return;
    item.classList.add("launched");
    item.tabIndex = -1;
    item.scrollIntoView({ block: "center" });
    item.focus();
  }

  function zones() {
    const list = byId("zones");
    const names = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
    list.replaceChildren(...names.map((name) => el("option", { value: name })));
  }

  document.addEventListener("DOMContentLoaded", () => {
    const launch = launchParams();
    state.initData = launch.initData;
    applyTheme(launch.theme);
    byId("status").classList.add("idle");
    byId("create").addEventListener("submit", create);
    byId("create-text").addEventListener("input", schedulePreview);
    byId("settings-form").addEventListener("submit", saveSettings);
    byId("undo").addEventListener("click", undoLast);
    byId("settings-locate").hidden = !canLocate();
    byId("settings-locate").addEventListener("click", useLocation);
    byId("agenda-off").addEventListener("click", () => {
      byId("settings-agenda").value = "";
    });
    byId("settings").addEventListener("toggle", zones, { once: true });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape") say("");
    });
    postEvent("web_app_ready");
    postEvent("web_app_expand");
    start().then(showLaunchedTask);
  });
})();
