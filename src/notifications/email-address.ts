// Whether a recipient text is an email address a notification can be mailed to (approval assignees are free text).

/** Loose but enough: one `@` with text on both sides and no spaces, at most 320 characters. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmailAddress(text: string | null | undefined): text is string {
  return typeof text === 'string' && text.length <= 320 && EMAIL.test(text);
}
