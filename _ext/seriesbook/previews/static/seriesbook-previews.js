/* seriesbook previews (§, chapters, citations): the gestures. What draws the box (…-box.js), its
   CSS and the page's data load on the first gesture by <script>/<link> elements (file:// works);
   nothing comes from another host. */
(() => {
  "use strict";
  const meta = document.querySelector('meta[name="seriesbook-previews"]');
  if (!meta) return;
  const src = document.currentScript.src, near = (n) => src.replace(/\.js(\?.*)?$/, n + "$1");
  const LINKS = 'a[href*="#sec-"],a[href*="#ch-"],a.seriesbook-citation';
  const HOVER_MS = 300, LEAVE_MS = 250, ID = "seriesbook-preview";
  const ARIA = ["aria-describedby", "aria-controls"], on = (t, f, c) => addEventListener(t, f, c);
  let data = null, loading = null, box = null, owner = null, timer = 0, touched = false;
  window.seriesbookPreviews = (d) => { data = d; };
  const add = (tag, props) => new Promise((done) => {
    document.head.append(Object.assign(document.createElement(tag), props,
      { onload: done, onerror: done }));
  });
  const load = () => loading || (loading = Promise.all([
    add("link", { rel: "stylesheet", href: near(".css") }),
    add("script", { src: near("-box.js") }), add("script", { src: meta.content })]));
  const linkOf = (el) => {
    const a = el instanceof Element && el.closest(LINKS);
    return a && !a.matches(".headerlink") && a.closest("article,div.body,[role=main]")
      && !a.closest("#" + ID + ",nav") ? a : null;
  };
  async function show(a) {
    clearTimeout(timer);
    await load();
    const p = data && data.p[a.getAttribute("href")];
    if (!p) return false;
    if (owner === a) return true;
    hide();
    owner = a;
    box = window.seriesbookPreviewBox(a, p, data.ui, ID);
    box.onpointerenter = () => clearTimeout(timer);
    box.onpointerleave = () => later(hide, LEAVE_MS);
    box.onfocusout = (e) => { if (!linkOrBox(e.relatedTarget)) hide(); };
    for (const name of ARIA) a.setAttribute(name, ID);
    a.setAttribute("aria-expanded", "true");
    return true;
  }
  function hide() {
    clearTimeout(timer);
    if (!box) return;
    box.remove();
    for (const name of ARIA) owner.removeAttribute(name);
    owner.setAttribute("aria-expanded", "false");
    box = owner = null;
  }
  const later = (fn, ms) => { clearTimeout(timer); timer = setTimeout(fn, ms); };
  const linkOrBox = (t) => t instanceof Node
    && ((box && box.contains(t)) || (owner && owner.contains(t)));
  on("pointerover", (e) => {
    if (e.pointerType === "touch") return;
    const a = linkOf(e.target);
    if (a) later(() => show(a), a === owner ? 0 : HOVER_MS);
  });
  on("pointerout", (e) => {
    const a = linkOf(e.target), to = e.relatedTarget;
    if (e.pointerType === "touch" || !a || linkOrBox(to) || (to instanceof Node && a.contains(to))) {
      return;
    }
    later(hide, box ? LEAVE_MS : 0);
  });
  on("pointerdown", (e) => { touched = e.pointerType === "touch"; }, true);
  on("focusin", (e) => {
    const a = linkOf(e.target);
    if (a && !touched) show(a);
    else if (!linkOrBox(e.target)) hide();
  });
  on("click", (e) => {
    const a = linkOf(e.target);
    if (!a) {
      if (box && !box.contains(e.target)) hide();
      return;
    }
    // touch: the first tap previews, a second one (or the box's link) goes
    if (touched && owner !== a) {
      e.preventDefault();
      show(a).then((shown) => { if (!shown) location.href = a.href; });
    }
  });
  // Tab from the link goes into the open box, Tab past its end to what follows the link,
  // Shift+Tab from its start back to the link (the box is at the end of <body>).
  const FOCUSABLE = "a[href],button,input,select,textarea,[tabindex]:not([tabindex='-1'])";
  const stops = (root) => [...root.querySelectorAll(FOCUSABLE)].filter((el) =>
    el.getClientRects().length && !(root === document && box && box.contains(el)));
  function tab(e) {
    const inBox = stops(box), active = document.activeElement;
    if (!inBox.length) return;
    if (active === owner && !e.shiftKey) {
      e.preventDefault();
      inBox[0].focus();
    } else if (active === inBox[0] && e.shiftKey) {
      e.preventDefault();
      owner.focus();
    } else if (active === inBox[inBox.length - 1] && !e.shiftKey) {
      const page = stops(document), after = page.slice(page.indexOf(owner) + 1);
      e.preventDefault();
      hide();
      // the first that takes focus (a hidden headerlink does not)
      after.find((el) => { el.focus(); return document.activeElement === el; });
    }
  }
  on("keydown", (e) => {
    touched = false;
    if (e.key === "Tab" && box) tab(e);
    if (e.key !== "Escape" || !box) return;
    const back = box.contains(document.activeElement) ? owner : null;
    hide();
    if (back) back.focus();
  });
})();
