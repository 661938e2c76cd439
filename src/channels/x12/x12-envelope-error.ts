// Body-level X12 error: the whole request is rejected (400) rather than one transaction.

/** Thrown for an unreadable interchange: no ISA, an ISA of the wrong length, a second ISA, and the like. */
export class X12EnvelopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'X12EnvelopeError';
  }
}
