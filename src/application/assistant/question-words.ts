// Words of a plain-language question: normalised tokens, and a forgiving match that accepts one typo in a longer word.

/** Lower case, apostrophes dropped, punctuation as spaces (order ids and SKUs are read from the raw text instead). */
export function normalise(text: string): string {
  return text.toLowerCase().replace(/[’']/g, '').replace(/[^a-z0-9_.$€£\s-]/g, ' ').replace(/\s+/g, ' ').trim();
}

export function tokens(text: string): string[] {
  return normalise(text).split(' ').filter(Boolean);
}

/** Optimal string alignment distance, stopping early past `max` (cheap for the short words of a question). */
function distanceWithin(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    let rowMin = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      rowMin = Math.min(rowMin, d[i][j]);
    }
    if (rowMin > max) return false;
  }
  return d[a.length][b.length] <= max;
}

/** True when a token is `word`, or (for words of 5 letters or more) one typo away from it. */
export function hasWord(toks: readonly string[], ...words: string[]): boolean {
  return words.some((w) => toks.some((t) => t === w || (w.length >= 5 && t.length >= 4 && distanceWithin(t, w, 1))));
}
