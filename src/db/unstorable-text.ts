// Recognises PostgreSQL's refusal of text it cannot store: the input's fault (400), never a bug's 500.

/** SQLSTATE 22021 (character_not_in_repertoire: a NUL byte) or 22P05 (untranslatable_character). */
export function isUnstorableText(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '22021' || code === '22P05';
}
