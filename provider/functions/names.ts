/** Close names for "not found" messages: edit distance, prefixes and substrings. */
import { levenshtein } from "../api/levenshtein";

/** Up to `max` of `names` that look like `wanted`, closest first. */
export function closeNames(wanted: string, names: readonly string[], max = 3): string[] {
  const w = wanted.toLowerCase();
  const limit = Math.max(2, Math.floor(w.length / 3));
  return [...new Set(names)]
    .map((n) => {
      const l = n.toLowerCase();
      const d = levenshtein(w, l);
      const related = l.includes(w) || w.includes(l);
      return { n, score: related ? Math.min(d, 1) : d, ok: related || d <= limit };
    })
    .filter((x) => x.ok)
    .sort((x, y) => x.score - y.score || x.n.localeCompare(y.n))
    .slice(0, max)
    .map((x) => x.n);
}
