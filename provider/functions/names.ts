/** Close names for "not found" messages: edit distance, prefixes and substrings. */

/** Levenshtein distance between two strings. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/** Up to `max` of `names` that look like `wanted`, closest first. */
export function closeNames(wanted: string, names: readonly string[], max = 3): string[] {
  const w = wanted.toLowerCase();
  const limit = Math.max(2, Math.floor(w.length / 3));
  return [...new Set(names)]
    .map((n) => {
      const l = n.toLowerCase();
      const d = editDistance(w, l);
      const related = l.includes(w) || w.includes(l);
      return { n, score: related ? Math.min(d, 1) : d, ok: related || d <= limit };
    })
    .filter((x) => x.ok)
    .sort((x, y) => x.score - y.score || x.n.localeCompare(y.n))
    .slice(0, max)
    .map((x) => x.n);
}
