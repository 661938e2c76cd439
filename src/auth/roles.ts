// Roles ordered viewer < approver < operator; each includes the ones before.
export const roles = ['viewer', 'approver', 'operator'] as const;
export type Role = (typeof roles)[number];

const rank: Record<Role, number> = { viewer: 1, approver: 2, operator: 3 };

/** True when `have` is `need` or above. */
export function roleAtLeast(have: Role, need: Role): boolean {
  return rank[have] >= rank[need];
}

/** The lower of two roles (a connected app's grant against the person's current role). */
export function lowerRole(a: Role, b: Role): Role {
  return rank[a] <= rank[b] ? a : b;
}
