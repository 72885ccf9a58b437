// The browser side of seriesbook's search, run by node for tests/test_search.py and
// tests/test_search_sections.py: reads one JSON request per line, writes one answer:
// {"split": query, "terms": [...]}, {"unpack": index}, {"sections": index} (the § parts and
// the located keys the page reads from a packed index), {"simplify": query, "index": index}.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import vm from "node:vm";

const [script] = process.argv.slice(2);
const context = vm.createContext({});
vm.runInContext(`${readFileSync(script, "utf8")}\nthis.SeriesbookSearch = SeriesbookSearch;`, context);
const { splitQuery, unpack, extra, locatedIn, toSimplified } = context.SeriesbookSearch;

for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  let answer;
  if ("split" in request) {
    const terms = new Set(request.terms);
    answer = splitQuery(request.split, (word) => terms.has(word));
  } else if ("sections" in request) {
    const index = request.sections;
    unpack(index);
    const ex = extra(index);
    answer = {
      parts: ex.parts.map(({ file, anchor, length, source }) => [file, anchor, length, source]),
      located: Object.fromEntries([...ex.located.keys()].map((key) => [key, locatedIn(ex, key)])),
    };
  } else if ("simplify" in request) {
    const index = request.index;
    unpack(index);
    answer = toSimplified(request.simplify, extra(index).variants);
  } else {
    answer = unpack(request.unpack);
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
