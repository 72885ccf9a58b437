// The browser side of seriesbook's search, run by node for tests/test_search.py: reads one JSON
// request per line ({"split": query, "terms": [...]} or {"unpack": index}), writes one answer.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import vm from "node:vm";

const [script] = process.argv.slice(2);
const context = vm.createContext({});
vm.runInContext(`${readFileSync(script, "utf8")}\nthis.SeriesbookSearch = SeriesbookSearch;`, context);
const { splitQuery, unpack } = context.SeriesbookSearch;

for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  let answer;
  if ("split" in request) {
    const terms = new Set(request.terms);
    answer = splitQuery(request.split, (word) => terms.has(word));
  } else {
    answer = unpack(request.unpack);
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
