/*
 * seriesbook: Chinese search that finds what readers type (no third-party code, works offline).
 *
 * Appended to Sphinx's language_data.js (the search language's splitter hook), after
 * searchtools.js. It changes these things of Sphinx's search page:
 *
 * - setIndex: the two-character Chinese terms, packed by seriesbook/search/compact.py, are put
 *   back into the index's terms as a query first asks for them (by first character; Sphinx's
 *   own search code reads no term itself here); the § postings and the traditional-character
 *   table are read aside.
 * - performSearch: search.html?q=… is answered as soon as the index has arrived (Sphinx waits
 *   for the document to be ready, after the theme's deferred scripts).
 * - _parseQuery: a query in traditional (or mixed) characters is converted to simplified ones
 *   with the index's part of OpenCC's table (phrases first, then characters; the Python twin is
 *   seriesbook/search/variants.py) before it is cut, so query and index are cut alike.
 * - splitQuery: Latin words and identifiers as Sphinx cuts them; each run of Chinese characters
 *   segmented against the index's own terms by forward and backward maximum matching (the cut
 *   with fewer parts wins, backward on a tie), a bigram where no term starts, never a single
 *   character left over. Its Python twin is seriesbook/search/splitter.py (tested alike).
 * - performTermsSearch: a page must match every part. A Chinese part matches where it is a term,
 *   or where all its bigrams are (the index holds every bigram of the book's Chinese text), and
 *   a single character where some term holds it. Latin parts match as in Sphinx.
 * - _performSearch: every title or § heading containing the query is a result, ranked first;
 *   a page with § sections is answered by its § that hold every part (from the § postings),
 *   linked to the §, grouped under the page, the page most about the query first.
 * - makeSearchSummary: the summary is the paragraph of the § holding the most parts, and
 *   results are ranked again once summaries arrive (a § holding every part in one paragraph
 *   before the others); each piece of it says the language the page says it is in (an
 *   untranslated paragraph's zh-CN, an English sentence naming 简体中文 English but that name).
 *
 * The ranking (README, "Chinese search"): (1) a title or § heading holding the query; (2) a §
 * holding every part of the query in one paragraph (from the index: a § holding every pair of
 * adjacent characters of the query; once the summaries arrive: a paragraph holding every part,
 * one holding the query as typed first);
 * (3) the others, by concentration: the page whose § hold the parts most (the share of its §
 * holding each part), and within a page the shorter § first. A part holding a function
 * character (的, 了, 和 …) is required of a page but does not rank.
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
  const SECTION_TIER = 500;
  const PER_PAGE = 4;
  const PHRASE_BONUS = 200;
  /** Function characters: a part holding one (器的, the splitter's bigram for a lone 的) is
   * still required of a page, but carries no weight in ranking. */
  const FUNCTION_CHARS = new Set("的了之和与及或是在");
  const isWeak = (part) => isHan(part) && Array.from(part).some((c) => FUNCTION_CHARS.has(c));
  /** The parts that rank: the query's parts without the weak ones (all, if all are weak). */
  const rankingParts = (parts) => {
    const strong = [...parts].filter((part) => !isWeak(part));
    return strong.length ? strong : [...parts];
  };
  const BLOCKS = "p, li, dt, dd, th, td, pre, figcaption, h1, h2, h3, h4, h5, h6";
  const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const CHAR_WIDTH = 3;
  const DIGIT_VALUE = new Map([...DIGITS].map((digit, value) => [digit, value]));

  const decode = (digits) => {
    let number = 0;
    for (const digit of digits) number = number * 64 + DIGIT_VALUE.get(digit);
    return number;
  };

  /** Numbers written by compact.py's varints: gaps, 5 bits a digit (32 up: more follow). */
  const readVarints = (text) => {
    const numbers = [];
    let value = 0;
    let previous = 0;
    for (const digit of text) {
      const code = DIGIT_VALUE.get(digit);
      value = value * 32 + (code & 31);
      if (code < 32) {
        previous += value;
        numbers.push(previous);
        value = 0;
      }
    }
    return numbers;
  };

  /** § numbers as compact.py's section_list wrote them: gaps, or "!", the first, a bitmap. */
  const readSectionList = (text) => {
    if (!text.startsWith("!")) return readVarints(text);
    const body = text.slice(1);
    if (!body) return [];
    let end = 0;
    while (DIGIT_VALUE.get(body[end]) >= 32) end += 1;
    const start = readVarints(body.slice(0, end + 1))[0];
    const numbers = [];
    for (let i = end + 1; i < body.length; i++) {
      const bits = DIGIT_VALUE.get(body[i]);
      for (let bit = 0; bit < 6; bit++)
        if (bits & (32 >> bit)) numbers.push(start + 6 * (i - end - 1) + bit);
    }
    return numbers;
  };

  /** What the index says beside Sphinx's fields: § postings and parts, the variants table. */
  const extraOf = new WeakMap();
  const extra = (index) =>
    extraOf.get(index) ?? { parts: [], first: [], located: new Map(), groups: new Map() };

  const readSections = (sections, located) => {
    const parts = [];
    const first = [];
    sections.anchors.forEach((anchors, file) => {
      first.push(parts.length);
      anchors.forEach((anchor, i) =>
        parts.push({ file, anchor, length: sections.lengths[file][i], source: false }),
      );
    });
    first.push(parts.length);
    for (const [key, value] of Object.entries(sections.other)) located.set(key, value);
    for (const number of readVarints(sections.untranslated ?? "")) parts[number].source = true;
    return { parts, first, lang: sections.lang ?? null };
  };

  const readVariants = (variants) => {
    const characters = new Map();
    const pairs = variants.characters;
    for (let at = 0; at + 2 * CHAR_WIDTH <= pairs.length; at += 2 * CHAR_WIDTH)
      characters.set(
        String.fromCodePoint(decode(pairs.slice(at, at + CHAR_WIDTH))),
        String.fromCodePoint(decode(pairs.slice(at + CHAR_WIDTH, at + 2 * CHAR_WIDTH))),
      );
    const phrases = new Map(Object.entries(variants.phrases));
    const longest = Math.max(1, ...[...phrases.keys()].map((key) => Array.from(key).length));
    return { characters, phrases, longest };
  };

  /** One group of the packed string (compact.py): [term, pages, § list or undefined] each. */
  const decodeGroup = (group, width) => {
    const [first, ...codes] = group.split(".");
    const head = String.fromCodePoint(decode(first));
    return codes.map((code) => {
      const [pageCodes, sections] = code.slice(CHAR_WIDTH).split("~");
      const pages = [];
      for (let at = 0; at < pageCodes.length; at += width)
        pages.push(decode(pageCodes.slice(at, at + width)));
      return [head + String.fromCodePoint(decode(code.slice(0, CHAR_WIDTH))), pages, sections];
    });
  };

  /**
   * Read the index's own fields aside (§ parts, variants) and keep the packed two-character
   * terms packed, by first character: a group is opened into the terms when a term of it is
   * first asked for (openGroup), so a search page shows its first result without decoding
   * every bigram of the book.
   */
  const attach = (index) => {
    const packed = index.seriesbook_bigrams;
    const groups = new Map();
    if (packed)
      for (const group of packed.pairs.split(" "))
        if (group) groups.set(String.fromCodePoint(decode(group.slice(0, CHAR_WIDTH))), group);
    const located = new Map();
    const sections = index.seriesbook_sections
      ? readSections(index.seriesbook_sections, located)
      : { parts: [], first: [], lang: null };
    const variants = index.seriesbook_variants ? readVariants(index.seriesbook_variants) : null;
    extraOf.set(index, { ...sections, located, variants, groups, width: packed?.width ?? 1, index });
    delete index.seriesbook_bigrams;
    delete index.seriesbook_sections;
    delete index.seriesbook_variants;
    return index;
  };

  /** Put the packed terms starting with *word*'s first character into the index (once). */
  const openGroup = (index, word) => {
    const ex = extraOf.get(index);
    const first = String.fromCodePoint(word.codePointAt(0) ?? 0);
    const group = ex?.groups.get(first);
    if (group === undefined) return;
    ex.groups.delete(first);
    for (const [term, pages, sections] of decodeGroup(group, ex.width)) {
      index.terms[term] = pages.length === 1 ? pages[0] : pages;
      if (sections !== undefined) ex.located.set(term, sections); // read when first asked
    }
  };

  const openAll = (index) => {
    for (const first of [...(extraOf.get(index)?.groups.keys() ?? [])]) openGroup(index, first);
  };

  /** The index with the packed two-character terms back in its terms (as compact.py's unpack). */
  const unpack = (index) => {
    attach(index);
    openAll(index);
    return index;
  };

  /** The query in simplified characters: phrases (longest first), then each character. */
  const toSimplified = (query, variants) => {
    if (!variants) return query;
    const chars = Array.from(query);
    let out = "";
    for (let at = 0; at < chars.length; ) {
      let length = Math.min(variants.longest, chars.length - at);
      for (; length > 1; length--) {
        const phrase = variants.phrases.get(chars.slice(at, at + length).join(""));
        if (phrase !== undefined) {
          out += phrase;
          break;
        }
      }
      if (length > 1) at += length;
      else {
        out += variants.characters.get(chars[at]) ?? chars[at];
        at += 1;
      }
    }
    return out;
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
  /** The pages of *word* in the index's terms (its packed group opened first). */
  const termPages = (index, word) => {
    openGroup(index, word);
    return lookup(index.terms, word);
  };
  const isTermOf = (index) => (word) => {
    openGroup(index, word);
    return Object.hasOwn(index.terms, word) || Object.hasOwn(index.titleterms, word);
  };

  /**
   * Pages where one part occurs, each with the best score it earns there. A Latin part also
   * matches its unstemmed form (Sphinx's index keeps "ops", not "op") and the terms holding it.
   */
  const keysOf = new WeakMap();
  /**
   * The keys of the index's terms and title terms holding Chinese (*han*) or not, each list
   * made once per index. The packed terms are all Chinese: only the Chinese lists open them.
   */
  const keys = (index, han) => {
    if (!keysOf.has(index)) keysOf.set(index, new Map());
    const made = keysOf.get(index);
    if (!made.has(han)) {
      if (han) openAll(index);
      const test = han ? (k) => HAS_HAN.test(k) : (k) => !isHan(k);
      const pick = (table) => Object.keys(table).filter(test);
      made.set(han, { terms: pick(index.terms), titleterms: pick(index.titleterms) });
    }
    return made.get(han);
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
      add(termPages(index, form), scorer.term);
      add(lookup(index.titleterms, form), scorer.title);
    }
    const chars = Array.from(part);
    const han = isHan(part);
    if (han ? chars.length === 1 : part.length > 2) {
      // the index has no single characters: the terms holding one; Sphinx's partial matches
      const { terms, titleterms } = keys(index, han);
      for (const [table, candidates, score] of [
        [index.terms, terms, scorer.partialTerm],
        [index.titleterms, titleterms, scorer.partialTitle],
      ])
        for (const term of candidates) if (term.includes(part)) add(asList(table[term]), score);
    } else if (han && chars.length > 2) {
      let common = null;
      for (let i = 0; i + 1 < chars.length; i++) {
        const pair = chars[i] + chars[i + 1];
        const pages = new Set([...termPages(index, pair), ...lookup(index.titleterms, pair)]);
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
          pageTitle !== title ? `${pageTitle} › ${title}` : title,
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

  /** Results merged by where they link (the best score kept), ascending as Sphinx displays
   * them; then grouped by page, each page where its best result is. */
  const merge = (results) => {
    const best = new Map();
    for (const result of results) {
      const key = `${result[0]}${result[2]}`;
      if (!best.has(key) || best.get(key)[4] < result[4]) best.set(key, result);
    }
    // as Sphinx orders: score, then title (code point order: no collator to load)
    const title = (result) => result[1].toLowerCase();
    const ranked = [...best.values()].sort((a, b) =>
      a[4] !== b[4] ? b[4] - a[4] : title(a) < title(b) ? -1 : title(a) > title(b) ? 1 : 0,
    );
    const pages = new Map();
    for (const result of ranked) {
      if (!pages.has(result[0])) pages.set(result[0], []);
      pages.get(result[0]).push(result);
    }
    return [...pages.values()].flat().reverse();
  };

  const sectionTitlesOf = new WeakMap();
  /** The title of each heading by where it is: "file#anchor" (once per index). */
  const sectionTitles = (index) => {
    if (!sectionTitlesOf.has(index)) {
      const found = new Map();
      for (const [title, hits] of Object.entries(index.alltitles))
        for (const [file, id] of hits) found.set(`${file}#${id ?? ""}`, title);
      sectionTitlesOf.set(index, found);
    }
    return sectionTitlesOf.get(index);
  };

  /** The § numbers of a located key (read from the index on first use), else undefined. */
  const locatedIn = (ex, key) => {
    if (ex.index) openGroup(ex.index, key);
    let numbers = ex.located.get(key);
    if (typeof numbers === "string") ex.located.set(key, (numbers = readSectionList(numbers)));
    return numbers;
  };

  /** Each pair of adjacent characters of a Chinese text. */
  const pairsOf = (text) => {
    const chars = Array.from(text);
    return chars.slice(1).map((char, i) => chars[i] + char);
  };

  /** The § numbers of page *file* holding every one of *pairs*, or null if none is located. */
  const sectionsWithPairs = (ex, file, pairs) => {
    const low = ex.first[file];
    const high = ex.first[file + 1];
    let found = null;
    for (const pair of pairs) {
      const numbers = locatedIn(ex, pair);
      if (numbers === undefined) continue; // too common to be located: any § may hold it
      const here = new Set(numbers.filter((n) => n >= low && n < high));
      found = found === null ? here : new Set([...found].filter((n) => here.has(n)));
    }
    return found;
  };

  /** The § numbers of page *file* holding *part*, or null where the index cannot tell. */
  const sectionsHolding = (ex, file, part, unstemmed) => {
    const low = ex.first[file];
    const high = ex.first[file + 1];
    const within = (numbers) => new Set(numbers.filter((n) => n >= low && n < high));
    if (isHan(part)) return sectionsWithPairs(ex, file, pairsOf(part));
    for (const key of new Set([part, unstemmed])) {
      const numbers = key === undefined ? undefined : locatedIn(ex, key);
      if (numbers !== undefined) return within(numbers);
    }
    return null;
  };

  /**
   * A page's results, when it has § sections: its § holding the most ranking parts (every
   * part, at best; a part the index does not locate counts as held), at most PER_PAGE, those
   * holding the query's characters side by side (every adjacent pair) first, then the shorter.
   * A § holding every part is scored in the § tier: PHRASE_BONUS if it holds them side by side,
   * plus how concentrated the parts are in its page (the share of the page's § holding each
   * part: a chapter about the query before a passing mention); otherwise it keeps the page's
   * score. A page whose § the index cannot tell apart is a page result.
   */
  const pageResults = (index, file, parts, unstemmed, score, runs = []) => {
    const ex = extra(index);
    const page = [
      index.docnames[file],
      index.titles[file],
      "",
      null,
      score,
      index.filenames[file],
      "text",
    ];
    const low = ex.first[file];
    const high = ex.first[file + 1];
    if (score <= 0 || low === undefined || low === high) return [page];
    const counts = new Map();
    let known = 0;
    let share = 0; // how concentrated the parts are in the page: the share of its § per part
    for (const part of rankingParts(parts)) {
      const found = sectionsHolding(ex, file, part, unstemmed.get(part));
      if (found === null) continue;
      known += 1;
      share += found.size / (high - low);
      for (const number of found) counts.set(number, (counts.get(number) ?? 0) + 1);
    }
    if (!known || !counts.size) return [page];
    const most = Math.max(...counts.values());
    const holding = [...counts].filter(([, count]) => count === most).map(([number]) => number);
    const every = most === known;
    const concentration = Math.round((100 * share) / known);
    // the query's characters side by side, as in one sentence: every adjacent pair of its runs
    const phrase = sectionsWithPairs(ex, file, runs.flatMap(pairsOf));
    const titles = sectionTitles(index);
    const inPhrase = (n) => (phrase?.has(n) ? 0 : 1);
    const chosen = holding
      .sort((a, b) => inPhrase(a) - inPhrase(b) || ex.parts[a].length - ex.parts[b].length || a - b)
      .slice(0, PER_PAGE);
    return chosen.map((number, rank) => {
      const { anchor } = ex.parts[number];
      const title = titles.get(`${file}#${anchor}`);
      return [
        index.docnames[file],
        anchor && title ? `${index.titles[file]} › ${title}` : index.titles[file],
        anchor ? "#" + anchor : "",
        null,
        (every ? SECTION_TIER + concentration + (phrase?.has(number) ? PHRASE_BONUS : 0) : score) +
          (PER_PAGE - rank) / 10,
        index.filenames[file],
        "text",
      ];
    });
  };

  /** An item's place in the ranking: heading tier, every part in one paragraph, score. */
  const tierOf = (item) => {
    const score = Number(item.querySelector("a")?.dataset.score ?? 0);
    const { seriesbookParts: parts, seriesbookOf: of } = item.dataset;
    const all = parts !== undefined && Number(parts) > 0 && Number(parts) >= Number(of) ? 1 : 0;
    const phrase = all && item.dataset.seriesbookPhrase ? 1 : 0; // as typed, in one paragraph
    return [score >= HEADING_TIER ? 1 : 0, all, phrase, score];
  };

  const pageOf = (item) => item.querySelector("a")?.pathname ?? "";
  const before = (a, b) => b[0] - a[0] || b[1] - a[1] || b[2] - a[2] || b[3] - a[3];

  /** Reorder the shown results by the ranking, each page's results together. */
  const reorder = (list) => {
    const items = [...list.children];
    const keyed = items.map((item, position) => ({ key: tierOf(item), position, item }));
    keyed.sort((a, b) => before(a.key, b.key) || a.position - b.position);
    const pages = new Map();
    for (const entry of keyed) {
      const page = pageOf(entry.item);
      if (!pages.has(page)) pages.set(page, []);
      pages.get(page).push(entry);
    }
    const ordered = [...pages.values()].flat();
    ordered.forEach(({ item }, at) =>
      item.classList.toggle(
        "seriesbook-more",
        at > 0 && pageOf(ordered[at - 1].item) === pageOf(item),
      ),
    );
    if (ordered.some(({ position }, at) => position !== at))
      ordered.forEach(({ item }) => list.appendChild(item));
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

  /** The blocks a § owns (not those of its numbered sub-§), innermost blocks only. */
  const ownBlocks = (root, anchors) =>
    [...root.querySelectorAll(BLOCKS)].filter((block) => {
      if (block.querySelector(BLOCKS)) return false;
      for (let node = block.parentElement; node && node !== root; node = node.parentElement)
        if (node.tagName === "SECTION" && anchors.has(node.id)) return false;
      return true;
    });

  /** The block holding the most parts (the first such, a diagram's source only if no prose
   * holds as many), and how many it holds. */
  const bestOwnBlock = (blocks, parts, runs = []) => {
    let best = { block: null, text: "", count: 0, phrase: false };
    const words = [...parts].map((part) => part.toLowerCase());
    const diagram = (block) => (block.matches("pre.mermaid") ? 1 : 0);
    for (const block of [...blocks].sort((a, b) => diagram(a) - diagram(b))) {
      const text = block.textContent;
      const lower = text.toLowerCase();
      const count = words.filter((word) => lower.includes(word)).length;
      // the query's Chinese as typed, side by side in this paragraph: a tie goes to it
      const phrase = runs.length > 0 && runs.every((run) => text.includes(run));
      if (count > best.count || (count === best.count && count && phrase && !best.phrase))
        best = { block, text, count, phrase };
    }
    return best;
  };

  /** *element*'s text with whitespace collapsed (`textContent.replace(/\s+/g, " ").trim()`)
   * as runs of { text, lang }: a text node is in the language of its nearest element saying
   * one (as the page marks it), else *fallback*. A run of white space joins the run before. */
  const textRuns = (element, fallback) => {
    const runs = [];
    const walker = element.ownerDocument.createTreeWalker(element, 4 /* SHOW_TEXT */);
    let space = true; // at the start, as after a space: leading white space goes
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      let data = node.data.replace(/\s+/g, " ");
      if (space && data.startsWith(" ")) data = data.slice(1);
      if (!data) continue;
      space = data.endsWith(" ");
      const lang = node.parentElement?.closest("[lang]")?.getAttribute("lang") || fallback;
      const last = runs[runs.length - 1];
      if (last && (last.lang === lang || data === " ")) last.text += data;
      else runs.push({ text: data, lang });
    }
    const last = runs[runs.length - 1];
    if (last && space) {
      last.text = last.text.slice(0, -1);
      if (!last.text) runs.pop();
    }
    return runs;
  };

  /** The runs' characters *start* to *start* + *length*, each piece keeping its language. */
  const sliceRuns = (runs, start, length) => {
    const pieces = [];
    let at = 0;
    for (const run of runs) {
      const from = Math.max(start - at, 0);
      const to = Math.min(start + length - at, run.text.length);
      if (to > from) pieces.push({ text: run.text.slice(from, to), lang: run.lang });
      at += run.text.length;
    }
    return pieces;
  };

  /** Fill *summary* with *pieces*: one language is the summary's own (unless it is the
   * *edition*'s), several are spans, each saying its own. */
  const writeSummary = (summary, pieces, before, after, edition) => {
    const langs = new Set(pieces.map((piece) => piece.lang));
    if (langs.size <= 1) {
      summary.textContent = before + pieces.map((piece) => piece.text).join("") + after;
      const [lang] = langs;
      if (lang && lang !== edition) summary.lang = lang;
      return;
    }
    const doc = summary.ownerDocument;
    summary.append(before);
    for (const piece of pieces) {
      if (piece.lang === edition) summary.append(piece.text);
      else {
        const span = summary.appendChild(doc.createElement("span"));
        span.lang = piece.lang;
        span.textContent = piece.text;
      }
    }
    summary.append(after);
  };

  const STYLE = `#search-results li.seriesbook-more { margin-left: 1.5em; }
#search-results li.seriesbook-more .seriesbook-page { display: none; }`;

  const install = (search, stockSplitQuery) => {
    const stockPerformSearch = search._performSearch;
    const stockParseQuery = search._parseQuery;
    const stockSetIndex = search.setIndex;
    let asked = { unstemmed: new Map(), stock: new Set(), runs: [] };
    const titlesShown = new Map();

    /** What a first query builds (title lists, key lists, compiled patterns), made while the
     * page is still loading: the index usually arrives before the page is ready to search. */
    const prepare = (index) => {
      if (search._index !== index) return;
      titles(index);
      sectionTitles(index);
      keys(index, false);
      headingResults(index, "§1 a");
      splitQuery("预备 a_b", isTermOf(index));
    };

    // Sphinx runs the query of search.html?q=… when the document is ready, that is after
    // every deferred script of the theme; the index and the results box are there before: the
    // query starts when the index arrives, and Sphinx's own start of it later is skipped.
    const stockStart = search.performSearch;
    let started = null;
    search.performSearch = (query) => {
      if (started !== null && query === started) started = null;
      else stockStart(query);
    };
    const startEarly = () => {
      if (!search._index || document.readyState === "complete") return;
      const query = new URLSearchParams(window.location.search).get("q");
      const results = document.getElementById("search-results");
      // Sphinx's start has not run yet: nothing queued, nothing shown
      if (!query || !results || results.childElementCount || started !== null) return;
      started = query;
      stockStart(query);
    };
    // the page parsed (the results box is there), its deferred scripts not yet run
    if (typeof document !== "undefined" && document.addEventListener)
      document.addEventListener("readystatechange", () => {
        if (document.readyState === "interactive") startEarly();
      });

    search.setIndex = (index) => {
      stockSetIndex(attach(index));
      if (typeof document !== "undefined") startEarly();
      setTimeout(() => prepare(index), 0);
    };

    search._parseQuery = (query) =>
      stockParseQuery(search._index ? toSimplified(query, extra(search._index).variants) : query);

    search.performTermsSearch = (searchTerms) => {
      const index = search._index;
      const found = new Map(matchAll(index, searchTerms, Scorer, asked.unstemmed));
      // every page Sphinx's own search lists stays listed, after the pages matching all parts
      for (const file of stockMatches(index, asked.stock, Scorer))
        if (!found.has(file)) found.set(file, 0);
      return [...found].flatMap(([file, score]) =>
        pageResults(index, file, [...searchTerms], asked.unstemmed, score, asked.runs),
      );
    };

    /** What each shown link's title is made of, and which parts are in the book's language. */
    const noteTitles = (index, results) => {
      const ex = extra(index);
      const suffix = typeof DOCUMENTATION_OPTIONS === "undefined" ? ".html" : DOCUMENTATION_OPTIONS.LINK_SUFFIX;
      const titles = sectionTitles(index);
      titlesShown.clear();
      for (const [docname, , anchor] of results) {
        const file = index.docnames.indexOf(docname);
        const id = anchor.replace(/^#/, "");
        const low = ex.first[file] ?? 0;
        const high = ex.first[file + 1] ?? 0;
        const parts = ex.parts.slice(low, high);
        const opening = parts.find((part) => part.anchor === "");
        const section = parts.find((part) => part.anchor === id);
        titlesShown.set(`${docname}${suffix}${anchor}`, {
          file,
          page: index.titles[file],
          pageSource: Boolean(opening?.source),
          section: id ? titles.get(`${file}#${id}`) ?? null : null,
          sectionSource: Boolean(section?.source),
        });
      }
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
      const runs = [...query.matchAll(HAN_RUN)].map((match) => match[0]);
      asked = { unstemmed, stock: stockTerms(query, stockSplitQuery, stemmer), runs };
      const results = merge([
        ...stockPerformSearch(query, ...rest),
        ...headingResults(search._index, query),
      ]);
      noteTitles(search._index, results);
      return results;
    };

    /** A shown result's title as page › §, each part marked with its language if need be. */
    const decorate = (item) => {
      const link = item.querySelector("a");
      const shown = link && titlesShown.get(link.getAttribute("href"));
      if (!shown) return;
      const lang = extra(search._index).lang;
      const span = (text, source, kind) => {
        const element = document.createElement("span");
        element.className = kind;
        element.textContent = text;
        if (lang && source) element.lang = lang;
        return element;
      };
      link.textContent = "";
      if (shown.section && shown.section !== shown.page) {
        link.append(span(shown.page, shown.pageSource, "seriesbook-page"));
        link.append(span(" › ", false, "seriesbook-page"));
        link.append(span(shown.section, shown.sectionSource, "seriesbook-section"));
      } else link.append(span(shown.page, shown.pageSource, "seriesbook-section"));
      const previous = item.previousElementSibling;
      if (previous && pageOf(previous) === pageOf(item)) item.classList.add("seriesbook-more");
    };

    /** Point a page result at the § holding its summary (unless that § is listed already). */
    const relink = (item, id) => {
      const link = item.querySelector("a");
      const shown = titlesShown.get(link.getAttribute("href"));
      const href = `${link.getAttribute("href").split("#")[0]}#${id}`;
      const links = [...item.parentElement.querySelectorAll("li > a")];
      if (!shown || links.some((a) => a.getAttribute("href") === href)) return;
      const index = search._index;
      const part = extra(index).parts.find((p) => p.file === shown.file && p.anchor === id);
      titlesShown.set(href, {
        ...shown,
        section: sectionTitles(index).get(`${shown.file}#${id}`) ?? null,
        sectionSource: Boolean(part?.source),
      });
      link.setAttribute("href", href);
      decorate(item);
    };

    const watch = () => {
      const results = document.getElementById("search-results");
      if (!results) return;
      document.head.appendChild(document.createElement("style")).textContent = STYLE;
      const once = (item) => {
        if (item.tagName !== "LI" || item.dataset.seriesbookShown) return;
        item.dataset.seriesbookShown = "1";
        decorate(item);
      };
      // a query run before this (the index was there first) has shown its first result
      results.querySelectorAll("li").forEach(once);
      new MutationObserver((records) => {
        for (const record of records) record.addedNodes.forEach(once);
      }).observe(results, { childList: true, subtree: true });
    };
    if (typeof document !== "undefined" && document.addEventListener) {
      if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch);
      else watch();
    }

    search.makeSearchSummary = (htmlText, keywords, anchor) => {
      const doc = new DOMParser().parseFromString(htmlText, "text/html");
      doc.querySelectorAll(".headerlink, script, style").forEach((el) => el.remove());
      const main = doc.querySelector('[role="main"]');
      if (!main) return null;
      const ex = extra(search._index);
      const anchors = new Set(ex.parts.map((part) => part.anchor).filter(Boolean));
      const section = anchor ? main.querySelector(anchor) : null;
      const root = section || main;
      // a § owns its text up to its numbered sub-§; a page result (or opening) the whole page
      const ranking = rankingParts(keywords);
      const blocks = ownBlocks(root, section ? anchors : new Set());
      const block = bestOwnBlock(blocks, ranking, asked.runs);
      const edition = document.documentElement.lang;
      const page = doc.documentElement.getAttribute("lang") || edition;
      const runs = textRuns(block.count ? block.block : root, page);
      const text = runs.map((run) => run.text).join("");
      const lower = text.toLowerCase();
      const first = Math.min(
        ...[...keywords].map((k) => lower.indexOf(k.toLowerCase())).filter((i) => i >= 0),
      );
      const start = Number.isFinite(first) ? Math.max(first - 120, 0) : 0;
      const summary = document.createElement("p");
      summary.classList.add("context");
      const pieces = sliceRuns(runs, start, 240);
      writeSummary(summary, pieces, start ? "..." : "", start + 240 < text.length ? "..." : "",
                   edition);
      // a page result whose paragraph is in a §: the index could not tell which, now we know
      let holder = block.block && !section ? block.block.parentElement : null;
      while (holder && !(holder.tagName === "SECTION" && anchors.has(holder.id)))
        holder = holder.parentElement;
      setTimeout(() => {
        const item = summary.closest("li");
        if (!item || !item.parentElement) return;
        if (holder) relink(item, holder.id);
        item.dataset.seriesbookParts = String(block.count);
        item.dataset.seriesbookOf = String(ranking.length);
        if (block.phrase) item.dataset.seriesbookPhrase = "1";
        reorder(item.parentElement);
      }, 0);
      return summary;
    };
  };

  return {
    splitQuery,
    unpack,
    attach,
    openGroup,
    toSimplified,
    extra,
    locatedIn,
    isTermOf,
    matchAll,
    forget,
    headingResults,
    merge,
    install,
  };
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
