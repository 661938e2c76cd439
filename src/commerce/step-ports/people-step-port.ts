// The `people` port over a slice's store (reads only).
import type { StepStore } from '../../engine/step-store.js';
import { operatorEmails } from '../operators-repo.js';
import type { PeoplePort } from '../ports/people-port.js';

export function peoplePort(store: StepStore): PeoplePort {
  return { operatorEmails: () => operatorEmails(store.reader) };
}
