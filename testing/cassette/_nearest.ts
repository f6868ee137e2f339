// On a miss, the recorded entry nearest the request: the one with the fewest
// differing leaves (fields, list items) once both are normalised; order
// breaks ties, so the earliest of equally near entries is named.

/** How many leaves differ between two JSON values, counting at most `cap`. */
export function distance(a: unknown, b: unknown, cap: number = Infinity): number {
  let n = 0;
  const walk = (x: unknown, y: unknown): void => {
    if (n >= cap || x === y) return;
    if (
      x === null || y === null || typeof x !== "object" || typeof y !== "object" ||
      Array.isArray(x) !== Array.isArray(y)
    ) {
      n++;
      return;
    }
    if (Array.isArray(x)) {
      const ys = y as unknown[];
      const len = Math.max(x.length, ys.length);
      for (let i = 0; i < len && n < cap; i++) walk(x[i], ys[i]);
      return;
    }
    const xo = x as Record<string, unknown>;
    const yo = y as Record<string, unknown>;
    for (const k in xo) walk(xo[k], yo[k]);
    for (const k in yo) if (!(k in xo)) walk(undefined, yo[k]);
  };
  walk(a, b);
  return n;
}

/** The index (into `candidates`) of the nearest one, or -1 when there are none. */
export function nearestOf(candidates: readonly unknown[], actual: unknown): number {
  let best = -1;
  let bestDistance = Infinity;
  for (let i = 0; i < candidates.length; i++) {
    const d = distance(candidates[i], actual, bestDistance);
    if (d < bestDistance) {
      best = i;
      bestDistance = d;
    }
  }
  return best;
}
