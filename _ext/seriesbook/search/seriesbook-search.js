/*
 * seriesbook: Chinese search that finds what readers type (no third-party code, works offline).
 *
 * Appended to Sphinx's language_data.js (the search language's splitter hook), after
 * searchtools.js. It changes five things of Sphinx's search page:
 *
 * - setIndex: the two-character Chinese terms, packed by seriesbook/search/compact.py, are put
 *   back into the index's terms before Sphinx's search sees it.
 * - splitQuery: Latin words and identifiers as Sphinx cuts them; each run of Chinese characters
 *   segmented against the index's own terms by forward and backward maximum matching (the cut
 *   with fewer parts wins, backward on a tie), a bigram where no term starts, never a single
 *   character left over. Its Python twin is seriesbook/search/splitter.py (tested alike).
 * - performTermsSearch: a page must match every part. A Chinese part matches where it is a term,
 *   or where all its bigrams are (the index holds every bigram of the book's Chinese text), and
 *   a single character where some term holds it. Latin parts match as in Sphinx.
 * - _performSearch: every title or § heading containing the query is a result, ranked first.
 * - makeSearchSummary: the summary is the paragraph holding the most parts, and pages are
 *   ranked by that number once their summaries arrive.
 */

const SeriesbookSearch = (() => {
  const HAN = "\\u4e00-\\u9fff\\u3400-\\u4dbf\\u{20000}-\\u{2ebef}\\uf900-\\ufaff";
  const HAN_RUN = new RegExp(`[${HAN}]+`, "gu");
  const ALL_HAN = new RegExp(`^[${HAN}]+$`, "u");
  const HAS_HAN = new RegExp(`[${HAN}]`, "u");
  const WORD = /[\p{L}\p{N}_]+/gu;
  const WORD_CHAR = /[\p{L}\p{N}_]/u;
  const LONGEST_TERM = 8;
  const HEADING_TIER = 1000;
  const BLOCKS = "p, li, dt, dd, th, td, pre, figcaption, h1, h2, h3, h4, h5, h6";
  const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const CHAR_WIDTH = 3;
  const DIGIT_VALUE = new Map([...DIGITS].map((digit, value) => [digit, value]));

  const decode = (digits) => {
    let number = 0;
    for (const digit of digits) number = number * 64 + DIGIT_VALUE.get(digit);
    return number;
  };

  /** The index with the packed two-character terms back in its terms (as compact.py's unpack). */
  const unpack = (index) => {
    const packed = index.seriesbook_bigrams;
    if (!packed) return index;
    const { width, pairs } = packed;
    for (const group of pairs.split(" ")) {
      if (!group) continue;
      const [first, ...codes] = group.split(".");
      const head = String.fromCodePoint(decode(first));
      for (const code of codes) {
        const term = head + String.fromCodePoint(decode(code.slice(0, CHAR_WIDTH)));
        const pages = [];
        for (let at = CHAR_WIDTH; at < code.length; at += width)
          pages.push(decode(code.slice(at, at + width)));
        index.terms[term] = pages.length === 1 ? pages[0] : pages;
      }
    }
    delete index.seriesbook_bigrams;
    return index;
  };

  const forward = (chars, isTerm) => {
    const parts = [];
    let start = 0;
    while (start < chars.length) {
      if (start === chars.length - 1) {
        parts.push(chars.slice(start - 1).join(""));
        break;
      }
      let length = Math.min(LONGEST_TERM, chars.length - start);
      while (length > 2 && !isTerm(chars.slice(start, start + length).join(""))) length -= 1;
      parts.push(chars.slice(start, start + length).join(""));
      start += length;
    }
    return parts;
  };

  const backward = (chars, isTerm) => {
    const parts = [];
    let end = chars.length;
    while (end > 0) {
      if (end === 1) {
        parts.push(chars.slice(0, 2).join(""));
        break;
      }
      let length = Math.min(LONGEST_TERM, end);
      while (length > 2 && !isTerm(chars.slice(end - length, end).join(""))) length -= 1;
      parts.push(chars.slice(end - length, end).join(""));
      end -= length;
    }
    return parts.reverse();
  };

  const segmentRun = (run, isTerm) => {
    const chars = Array.from(run);
    if (chars.length < 2) return [run];
    const fwd = forward(chars, isTerm);
    const bwd = backward(chars, isTerm);
    return fwd.length < bwd.length ? fwd : bwd;
  };

  /** The parts of a query a page must all match, each once, in order. */
  const splitQuery = (query, isTerm) => {
    const parts = new Set();
    for (const [word] of query.matchAll(WORD)) {
      let position = 0;
      for (const match of word.matchAll(HAN_RUN)) {
        if (match.index > position) parts.add(word.slice(position, match.index));
        segmentRun(match[0], isTerm).forEach((part) => parts.add(part));
        position = match.index + match[0].length;
      }
      if (position < word.length) parts.add(word.slice(position));
    }
    return [...parts];
  };

  const isHan = (word) => ALL_HAN.test(word);
  const asList = (files) => (typeof files === "number" ? [files] : files);
  const lookup = (table, word) => (Object.hasOwn(table, word) ? asList(table[word]) : []);
  const isTermOf = (index) => (word) =>
    Object.hasOwn(index.terms, word) || Object.hasOwn(index.titleterms, word);

  /**
   * Pages where one part occurs, each with the best score it earns there. A Latin part also
   * matches its unstemmed form (Sphinx's index keeps "ops", not "op") and the terms holding it.
   */
  const keysOf = new WeakMap();
  /** The index's terms and title terms, split into Chinese and other keys (once per index). */
  const keys = (index) => {
    if (!keysOf.has(index)) {
      const split = (table) => {
        const all = Object.keys(table);
        return { han: all.filter((k) => HAS_HAN.test(k)), other: all.filter((k) => !isHan(k)) };
      };
      keysOf.set(index, { terms: split(index.terms), titleterms: split(index.titleterms) });
    }
    return keysOf.get(index);
  };

  let remembered = new Map();
  /** Forget the pages of the parts looked up so far (a new query, maybe a new index). */
  const forget = () => (remembered = new Map());

  const pagesOf = (index, part, scorer, unstemmed = part) => {
    const key = `${part}\u0000${unstemmed}`;
    if (!remembered.has(key)) remembered.set(key, lookUp(index, part, scorer, unstemmed));
    return remembered.get(key);
  };

  const lookUp = (index, part, scorer, unstemmed) => {
    const scores = new Map();
    const add = (files, score) =>
      files.forEach((file) => scores.set(file, Math.max(scores.get(file) ?? 0, score)));
    for (const form of new Set([part, unstemmed])) {
      add(lookup(index.terms, form), scorer.term);
      add(lookup(index.titleterms, form), scorer.title);
    }
    const chars = Array.from(part);
    const han = isHan(part);
    if (han ? chars.length === 1 : part.length > 2) {
      // the index has no single characters: the terms holding one; Sphinx's partial matches
      const { terms, titleterms } = keys(index);
      for (const [table, candidates, score] of [
        [index.terms, han ? terms.han : terms.other, scorer.partialTerm],
        [index.titleterms, han ? titleterms.han : titleterms.other, scorer.partialTitle],
      ])
        for (const term of candidates) if (term.includes(part)) add(asList(table[term]), score);
    } else if (han && chars.length > 2) {
      let common = null;
      for (let i = 0; i + 1 < chars.length; i++) {
        const pair = chars[i] + chars[i + 1];
        const pages = new Set([...lookup(index.terms, pair), ...lookup(index.titleterms, pair)]);
        common = common === null ? pages : new Set([...common].filter((f) => pages.has(f)));
      }
      add([...common], scorer.partialTerm);
    }
    return scores;
  };

  /** Pages matching every part: [file, score] pairs (the score of the best-scoring part). */
  const matchAll = (index, parts, scorer, unstemmed = new Map()) => {
    let matched = null;
    for (const part of parts) {
      const scores = pagesOf(index, part, scorer, unstemmed.get(part));
      if (matched === null) matched = new Map(scores);
      else {
        for (const [file, score] of matched) {
          if (scores.has(file)) matched.set(file, Math.max(score, scores.get(file)));
          else matched.delete(file);
        }
      }
    }
    return matched === null ? [] : [...matched];
  };

  /**
   * At least the pages Sphinx's own search lists for its terms: those matching all of them or,
   * Sphinx's rule, as many as there are terms longer than two (here: at least as many, since
   * each term matches more pages here than in Sphinx).
   */
  const stockMatches = (index, terms, scorer) => {
    const counts = new Map();
    for (const term of terms)
      for (const file of pagesOf(index, term, scorer).keys())
        counts.set(file, (counts.get(file) ?? 0) + 1);
    const longer = [...terms].filter((term) => term.length > 2).length;
    return [...counts].filter(([, n]) => n === terms.size || (longer && n >= longer)).map(([f]) => f);
  };

  const collapse = (text) => text.toLowerCase().replace(/\s+/g, " ").trim();

  /** Where the query stands alone in a title ("§12.3" in "§12.3 x", not in "§12.3.1 x"). */
  const standsAlone = (title, start, length) => {
    const before = title.slice(0, start);
    const after = title.slice(start + length);
    return !WORD_CHAR.test(before.slice(-1)) && !/^(?:[\p{L}\p{N}_]|\.\p{N})/u.test(after);
  };

  const titlesOf = new WeakMap();
  /** Each title with its lower-cased forms: spaces collapsed, and without spaces (once). */
  const titles = (index) => {
    if (!titlesOf.has(index))
      titlesOf.set(
        index,
        Object.entries(index.alltitles).map(([title, found]) => {
          const text = collapse(title);
          return { title, found, text, bare: text.replace(/ /g, "") };
        }),
      );
    return titlesOf.get(index);
  };

  /** Every title or § heading containing the query (spaces ignored), in the first tier. */
  const headingResults = (index, query) => {
    const wanted = collapse(query);
    const bare = wanted.replace(/ /g, "");
    if (!bare) return [];
    const results = [];
    for (const { title, found, text, bare: bareTitle } of titles(index)) {
      if (!bareTitle.includes(bare)) continue;
      const at = text.indexOf(wanted);
      let score = HEADING_TIER + Math.round((100 * bare.length) / bareTitle.length);
      if (at >= 0) score += standsAlone(text, at, wanted.length) ? 200 : 100;
      for (const [file, id] of found) {
        const pageTitle = index.titles[file];
        results.push([
          index.docnames[file],
          pageTitle !== title ? `${pageTitle} > ${title}` : title,
          id !== null ? "#" + id : "",
          null,
          score + (pageTitle === title ? 1 : 0),
          index.filenames[file],
          "title",
        ]);
      }
    }
    return results;
  };

  /** Results merged by what they show (the best score kept), ascending as Sphinx displays them. */
  const merge = (results) => {
    const best = new Map();
    for (const result of results) {
      const key = [...result.slice(0, 4), result[5]].map(String).join(",");
      if (!best.has(key) || best.get(key)[4] < result[4]) best.set(key, result);
    }
    return [...best.values()].sort((a, b) =>
      a[4] !== b[4] ? a[4] - b[4] : b[1].toLowerCase().localeCompare(a[1].toLowerCase()),
    );
  };

  /** The block of the text holding the most parts (the first such), and how many it holds. */
  const bestBlock = (root, parts) => {
    let best = { text: "", count: 0 };
    const words = [...parts].map((part) => part.toLowerCase());
    for (const block of root.querySelectorAll(BLOCKS)) {
      if (block.querySelector(BLOCKS)) continue; // the innermost blocks only
      const text = block.textContent;
      const lower = text.toLowerCase();
      const count = words.filter((word) => lower.includes(word)).length;
      if (count > best.count) best = { text, count };
    }
    return best;
  };

  const tierOf = (item) => {
    const score = Number(item.querySelector("a")?.dataset.score ?? 0);
    return [score >= HEADING_TIER ? 1 : 0, Number(item.dataset.seriesbookParts ?? -1), score];
  };

  /** Reorder the shown results: headings first, then by parts in one paragraph, then score. */
  const reorder = (list) => {
    const items = [...list.children];
    const keyed = items.map((item, position) => [tierOf(item), position, item]);
    keyed.sort(([a, i], [b, j]) => b[0] - a[0] || b[1] - a[1] || b[2] - a[2] || i - j);
    if (keyed.some(([, position], at) => position !== at))
      keyed.forEach(([, , item]) => list.appendChild(item));
  };

  /** Sphinx's reading of a query: its own split, stop words and digits dropped, stemmed. */
  const stockTerms = (query, split, stemmer) => {
    const terms = new Set();
    for (const word of split(query.trim())) {
      const lower = word.toLowerCase();
      if (!stopwords.has(lower) && !/^\d+$/.test(word)) terms.add(stemmer.stemWord(lower));
    }
    return terms;
  };

  const install = (search, stockSplitQuery) => {
    const stockPerformSearch = search._performSearch;
    const stockSetIndex = search.setIndex;
    let asked = { unstemmed: new Map(), stock: new Set() };

    search.setIndex = (index) => stockSetIndex(unpack(index));

    search.performTermsSearch = (searchTerms) => {
      const index = search._index;
      const found = new Map(matchAll(index, searchTerms, Scorer, asked.unstemmed));
      // every page Sphinx's own search lists stays listed, after the pages matching all parts
      for (const file of stockMatches(index, asked.stock, Scorer))
        if (!found.has(file)) found.set(file, 0);
      return [...found].map(([file, score]) => [
        index.docnames[file],
        index.titles[file],
        "",
        null,
        score,
        index.filenames[file],
        "text",
      ]);
    };

    search._performSearch = (query, ...rest) => {
      const stemmer = new Stemmer();
      const unstemmed = new Map();
      forget();
      for (const word of splitQuery(query.trim(), isTermOf(search._index))) {
        const lower = word.toLowerCase();
        const stem = stemmer.stemWord(lower);
        if (stem.length < 3 && lower.length >= 3) unstemmed.set(stem, lower);
      }
      asked = { unstemmed, stock: stockTerms(query, stockSplitQuery, stemmer) };
      return merge([...stockPerformSearch(query, ...rest), ...headingResults(search._index, query)]);
    };

    search.makeSearchSummary = (htmlText, keywords, anchor) => {
      const doc = new DOMParser().parseFromString(htmlText, "text/html");
      doc.querySelectorAll(".headerlink, script, style").forEach((el) => el.remove());
      const main = doc.querySelector('[role="main"]');
      if (!main) return null;
      const root = (anchor && main.querySelector(anchor)) || main;
      const block = bestBlock(root, keywords);
      const text = (block.count ? block.text : root.textContent).replace(/\s+/g, " ").trim();
      const lower = text.toLowerCase();
      const first = Math.min(
        ...[...keywords].map((k) => lower.indexOf(k.toLowerCase())).filter((i) => i >= 0),
      );
      const start = Number.isFinite(first) ? Math.max(first - 120, 0) : 0;
      const summary = document.createElement("p");
      summary.classList.add("context");
      summary.textContent =
        (start ? "..." : "") + text.substr(start, 240) + (start + 240 < text.length ? "..." : "");
      setTimeout(() => {
        const item = summary.closest("li");
        if (!item || !item.parentElement) return;
        item.dataset.seriesbookParts = String(block.count);
        reorder(item.parentElement);
      }, 0);
      return summary;
    };
  };

  return { splitQuery, unpack, isTermOf, matchAll, forget, headingResults, merge, install };
})();

if (typeof Search !== "undefined") {
  // searchtools.js is loaded before this file (Sphinx's and the themes' search templates).
  // The index is loaded before any query runs; until then a Chinese run is cut into bigrams.
  const stockSplitQuery = splitQuery;
  splitQuery = (query) =>
    SeriesbookSearch.splitQuery(
      query,
      Search._index ? SeriesbookSearch.isTermOf(Search._index) : () => false,
    );
  SeriesbookSearch.install(Search, stockSplitQuery);
}
