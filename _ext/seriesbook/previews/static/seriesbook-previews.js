/* seriesbook previews of § sections, chapters and cited lines (hover, focus, tap). The page's
   data (<meta name="seriesbook-previews">) and the style sheet load on the first gesture, by
   <script>/<link> elements so file:// works; nothing comes from another host. */
(() => {
  "use strict";
  const meta = document.querySelector('meta[name="seriesbook-previews"]');
  if (!meta) return;
  const css = document.currentScript.src.replace(/\.js(\?.*)?$/, ".css$1");
  const LINKS = 'a[href*="#sec-"],a[href*="#ch-"],a.seriesbook-citation';
  const HOVER_MS = 300, LEAVE_MS = 250, ID = "seriesbook-preview";
  let data = null, loading = null, box = null, owner = null, timer = 0, touched = false;

  window.seriesbookPreviews = (d) => { data = d; };
  const add = (tag, props) => new Promise((done) => {
    document.head.append(Object.assign(document.createElement(tag), props,
      { onload: done, onerror: done }));
  });
  const load = () => loading || (loading = Promise.all([
    add("link", { rel: "stylesheet", href: css }), add("script", { src: meta.content })]));

  const linkOf = (el) => {
    const a = el instanceof Element && el.closest(LINKS);
    return a && !a.matches(".headerlink") && a.closest("article,div.body,[role=main]")
      && !a.closest("#" + ID + ",nav") ? a : null;
  };
  const el = (tag, cls, text, lang) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    if (lang) e.lang = lang;
    return e;
  };

  function render(a, p) {
    const ui = data.ui, d = el("div", "sbp");
    d.id = ID;
    d.setAttribute("role", "dialog");
    d.setAttribute("aria-label", ui.label + ": " + p.t);
    d.append(el("p", "sbp-title", p.t, p.tl));
    if (p.l) {
      if (p.r) d.firstChild.append(el("span", "sbp-ref", " " + p.r));
      const pre = el("pre"), code = el("div", "highlight sbp-code");
      pre.innerHTML = p.l.map((line, i) =>
        '<span class="linenos">' + (p.s + i) + "</span>" + line).join("\n");
      code.tabIndex = 0;
      code.append(pre);
      d.append(code);
      if (p.m) d.append(el("p", "sbp-more", ui.more.replace("{n}", p.m)));
    } else {
      for (const [kind, text, lang] of p.b) {
        d.append(kind === "p" ? el("p", "", text, lang)
          : el("p", "sbp-named", "〔" + ui[kind] + (text ? " · " + text : "") + "〕"));
      }
    }
    const foot = el("p", "sbp-foot");
    if (p.f) foot.append(el("span", "sbp-license", p.f));
    const go = el("a", "", p.l ? ui.gh : ui.go);
    go.href = a.href;
    foot.append(go);
    d.append(foot);
    d.addEventListener("pointerenter", () => clearTimeout(timer));
    d.addEventListener("pointerleave", () => later(hide, LEAVE_MS));
    d.addEventListener("focusout", (e) => { if (!linkOrBox(e.relatedTarget)) hide(); });
    return d;
  }

  function place(a, d) {
    const r = a.getBoundingClientRect(), w = Math.min(560, innerWidth - 16);
    d.style.width = w + "px";
    d.style.left = scrollX + Math.max(8, Math.min(r.left, innerWidth - w - 8)) + "px";
    const below = innerHeight - r.bottom > d.offsetHeight + 8 || r.top < d.offsetHeight + 8;
    d.style.top = scrollY + (below ? r.bottom + 6 : r.top - d.offsetHeight - 6) + "px";
  }

  async function show(a) {
    clearTimeout(timer);
    await load();
    const p = data && data.p[a.getAttribute("href")];
    if (!p) return false;
    if (owner === a) return true;
    hide();
    owner = a;
    box = render(a, p);
    document.body.append(box);
    place(a, box);
    a.setAttribute("aria-describedby", ID);
    a.setAttribute("aria-controls", ID);
    a.setAttribute("aria-expanded", "true");
    return true;
  }

  function hide() {
    clearTimeout(timer);
    if (!box) return;
    box.remove();
    for (const name of ["aria-describedby", "aria-controls"]) owner.removeAttribute(name);
    owner.setAttribute("aria-expanded", "false");
    box = owner = null;
  }

  const later = (fn, ms) => { clearTimeout(timer); timer = setTimeout(fn, ms); };
  const linkOrBox = (t) => t instanceof Node
    && ((box && box.contains(t)) || (owner && owner.contains(t)));

  document.addEventListener("pointerover", (e) => {
    if (e.pointerType === "touch") return;
    const a = linkOf(e.target);
    if (a) later(() => show(a), a === owner ? 0 : HOVER_MS);
  });
  document.addEventListener("pointerout", (e) => {
    const a = linkOf(e.target), to = e.relatedTarget;
    if (e.pointerType === "touch" || !a || linkOrBox(to) || (to instanceof Node && a.contains(to))) {
      return;
    }
    later(hide, box ? LEAVE_MS : 0);
  });
  document.addEventListener("pointerdown", (e) => { touched = e.pointerType === "touch"; }, true);
  document.addEventListener("focusin", (e) => {
    const a = linkOf(e.target);
    if (a && !touched) show(a);
    else if (!linkOrBox(e.target)) hide();
  });
  document.addEventListener("click", (e) => {
    const a = linkOf(e.target);
    if (!a) {
      if (box && !box.contains(e.target)) hide();
      return;
    }
    // touch: the first tap previews, a second tap on the same link (or the link inside) goes
    if (touched && owner !== a) {
      e.preventDefault();
      show(a).then((shown) => { if (!shown) location.href = a.href; });
    }
  });
  document.addEventListener("keydown", (e) => {
    touched = false;
    if (e.key !== "Escape" || !box) return;
    const back = box.contains(document.activeElement) ? owner : null;
    hide();
    if (back) back.focus();
  });
})();
