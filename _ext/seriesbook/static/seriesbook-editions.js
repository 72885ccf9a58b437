// seriesbook editions: the links to this page in the other editions keep the reader's place.
// Each link already points at the same page (it works without JavaScript); this adds the
// current #anchor (e.g. #sec-12-3) whenever it changes, and once more on click.
(function () {
  "use strict";
  function follow(link) {
    var base = link.getAttribute("href").split("#")[0];
    link.setAttribute("href", base + window.location.hash);
  }
  function followAll() {
    document.querySelectorAll("a.seriesbook-edition").forEach(follow);
  }
  document.addEventListener("DOMContentLoaded", function () {
    followAll();
    document.querySelectorAll("a.seriesbook-edition").forEach(function (link) {
      link.addEventListener("click", function () { follow(link); });
    });
  });
  window.addEventListener("hashchange", followAll);
})();
