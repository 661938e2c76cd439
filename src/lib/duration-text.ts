// A duration as people read it on a page or a drawing: "850 ms", "3.2 s", "4 min 10 s", "2 h 5 min", "3 d 4 h".

/** Milliseconds as the largest two units that matter (one decimal of a second under a minute). */
export function durationText(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const s = ms / 1_000;
  if (s < 60) return `${s < 10 ? (Math.floor(s * 10) / 10).toString() : Math.floor(s)} s`;
  const total = Math.floor(s);
  const d = Math.floor(total / 86_400);
  const h = Math.floor((total % 86_400) / 3_600);
  const m = Math.floor((total % 3_600) / 60);
  const sec = total % 60;
  if (d > 0) return h > 0 ? `${d} d ${h} h` : `${d} d`;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  return sec > 0 ? `${m} min ${sec} s` : `${m} min`;
}
