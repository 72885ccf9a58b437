/* seriesbook previews: the box. Loaded on the first gesture by seriesbook-previews.js, which
   calls seriesbookPreviewBox(link, preview, words, id) and gets the box, in the page, placed. */
(() => {
  "use strict";
  const el = (tag, cls, text, lang) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    if (lang) e.lang = lang;
    return e;
  };
  /* 〔Diagram · its name〕: the word is the edition's, the name says its own language. */
  const named = (word, text, lang) => {
    const e = el("p", "sbp-named", "〔" + word + (text ? " · " : ""));
    if (text) e.append(el("span", "", text, lang));
    e.append("〕");
    return e;
  };
  function render(a, p, ui, ID) {
    const d = el("div", "sbp");
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
          : kind === "s" ? el("p", "sbp-sub", text, lang)
          : named(ui[kind], text, lang));
      }
    }
    const foot = el("p", "sbp-foot");
    if (p.f) foot.append(el("span", "sbp-license", p.f));
    const go = el("a", "", p.l ? ui.gh : ui.go);
    go.href = a.href;
    foot.append(go);
    d.append(foot);
    return d;
  }
  function place(a, d) {
    const r = a.getBoundingClientRect(), w = Math.min(560, innerWidth - 16);
    d.style.width = w + "px";
    d.style.left = scrollX + Math.max(8, Math.min(r.left, innerWidth - w - 8)) + "px";
    const below = innerHeight - r.bottom > d.offsetHeight + 8 || r.top < d.offsetHeight + 8;
    d.style.top = scrollY + (below ? r.bottom + 6 : r.top - d.offsetHeight - 6) + "px";
  }
  window.seriesbookPreviewBox = (a, p, ui, id) => {
    const d = render(a, p, ui, id);
    document.body.append(d);
    place(a, d);
    return d;
  };
})();
