// What an instruction asks for, as the grammar reads it: the kind of edit and the phrases naming steps, branches and values.

/** Who a notification goes to, as the words of an instruction name them (commerce.notify `to`). */
export type Audience = 'seller' | 'customer' | 'operations';

/** The node an insert asks for: the phrase naming its type and what else the words said about it. */
export interface NewStepPhrase {
  /** The type phrase ("approval", "fraud check", "notification"). */
  type: string;
  /** A duration said with it ("a 2 day delay"), in the flow format. */
  duration: string | null;
  audience: Audience | null;
  /** A dotted event name said with it ("wait for payment.received"). */
  event: string | null;
}

export type FlowInstruction =
  /** Add a node before or after a step; `branch` picks the branch of `step` (or, without a step, the step that has it). */
  | { kind: 'insert'; what: NewStepPhrase; where: 'before' | 'after'; step: string | null; branch: string | null }
  /** Take a step out, connecting what led into it to where it led. */
  | { kind: 'remove'; step: string }
  /** Point a branch (of `step`, or of the one step that has it) at another step or an end. */
  | { kind: 'reconnect'; branch: string; step: string | null; target: string }
  /** Change one param of a step; `param` null means its duration (timeout or duration). */
  | { kind: 'params'; step: string; param: string | null; value: string };
