// seriesbook serve's live page: reload when this page is written again, keeping the § in view,
// and show the edition's problems (what `seriesbook check` reports) in a dismissible overlay.
// Injected by the server only; never part of a normal build.
(() => {
  "use strict";
  const POSITION = "seriesbook-serve-position";
  const DISMISSED = "seriesbook-serve-dismissed";
  const page = location.pathname.endsWith("/") ? `${location.pathname}index.html` : location.pathname;
  const docname = decodeURIComponent(page).split("/").slice(2).join("/").replace(/\.html$/, "");
  // how many times this page had been written when it was sent: the server reloads it at once
  // if it was written again before this script connected
  const version = (document.currentScript && document.currentScript.dataset.version) || "0";

  // The § (section) at the top of the window, and how far above the top it starts.
  function position() {
    let where = null;
    for (const section of document.querySelectorAll("section[id]")) {
      const top = section.getBoundingClientRect().top;
      if (top <= 1) where = { id: section.id, offset: top };
    }
    return { page, y: window.scrollY, ...where };
  }

  function restore() {
    const saved = sessionStorage.getItem(POSITION);
    if (!saved) return;
    sessionStorage.removeItem(POSITION);
    const { page: from, y, id, offset } = JSON.parse(saved);
    if (from !== page) return;
    const section = id ? document.getElementById(id) : null;
    if (section) window.scrollBy(0, section.getBoundingClientRect().top - offset);
    else window.scrollTo(0, y);
  }

  function reload() {
    sessionStorage.setItem(POSITION, JSON.stringify(position()));
    history.scrollRestoration = "manual";
    location.reload();
  }

  function overlay() {
    let box = document.getElementById("seriesbook-serve-problems");
    if (box) return box;
    box = document.createElement("aside");
    box.id = "seriesbook-serve-problems";
    box.setAttribute("role", "status");
    box.setAttribute("aria-label", "seriesbook problems");
    box.style.cssText = [
      "position:fixed", "right:1rem", "bottom:1rem", "z-index:2147483647", "max-width:min(40rem,90vw)",
      "max-height:50vh", "overflow:auto", "background:#fff8f0", "color:#3a1d00",
      "border:2px solid #c2410c", "border-radius:6px", "padding:.5rem .75rem",
      "font:13px/1.4 ui-monospace,monospace", "box-shadow:0 4px 16px rgba(0,0,0,.25)",
    ].join(";");
    document.body.append(box);
    return box;
  }

  function show(problems) {
    const signature = JSON.stringify(problems);
    const old = document.getElementById("seriesbook-serve-problems");
    if (!problems.length || sessionStorage.getItem(DISMISSED) === signature) {
      if (old) old.remove();
      return;
    }
    const box = overlay();
    box.replaceChildren();
    const head = document.createElement("div");
    head.style.cssText = "display:flex;justify-content:space-between;gap:1rem;font-weight:bold";
    const title = document.createElement("span");
    title.textContent = `${problems.length} problem${problems.length === 1 ? "" : "s"} (seriesbook check)`;
    const close = document.createElement("button");
    close.type = "button";
    close.textContent = "×";
    close.setAttribute("aria-label", "Dismiss");
    close.addEventListener("click", () => {
      sessionStorage.setItem(DISMISSED, signature);
      box.remove();
    });
    head.append(title, close);
    const list = document.createElement("ul");
    list.style.cssText = "margin:.25rem 0 0;padding-left:1rem";
    for (const problem of problems) {
      const item = document.createElement("li");
      const where = problem.line ? `${problem.file}:${problem.line}` : problem.file || "<book>";
      const place = document.createElement("code");
      place.className = "seriesbook-serve-where";
      place.textContent = where;
      item.append(place, `: ${problem.code}: ${problem.message}`);
      list.append(item);
    }
    box.append(head, list);
  }

  function listen() {
    const query = `page=${encodeURIComponent(page)}&version=${encodeURIComponent(version)}`;
    const events = new EventSource(`/_seriesbook/events?${query}`);
    events.addEventListener("reload", (event) => {
      if (JSON.parse(event.data).includes(docname)) reload();
    });
    events.addEventListener("problems", (event) => show(JSON.parse(event.data)));
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => { restore(); listen(); });
  } else {
    restore();
    listen();
  }
})();
