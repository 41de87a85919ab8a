// "Did you mean ...?" for mistyped command words and filter names.

/** Optimal string alignment distance: Levenshtein plus one-step transpositions ("strat" -> "start"). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      const row = d[i];
      if (row) row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** Words longer than this are not typos of a short vocabulary; skipping them bounds the work. */
const MAX_COMPARED_LENGTH = 40;

/**
 * The candidate the user most likely meant, or null when nothing is close: a small edit distance
 * (1 for short words, 2 from four letters on), or an unambiguous prefix of at least three letters
 * ("avail" -> "availability"). Comparison ignores case.
 */
export function closestMatch(word: string, candidates: readonly string[]): string | null {
  const typed = word.toLowerCase();
  if (typed === '' || typed.length > MAX_COMPARED_LENGTH) return null;
  const allowed = typed.length >= 4 ? 2 : 1;
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(typed, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== null && bestDistance <= allowed) return best;
  if (typed.length >= 3) {
    const prefixed = candidates.filter((candidate) => candidate.toLowerCase().startsWith(typed));
    if (prefixed.length === 1) return prefixed[0] ?? null;
  }
  return null;
}
