// Who must use two-factor (nobody / operators / approvers and operators / everyone), read with a short cache.
import type { Queryable } from '../db/db.js';
import type { Clock } from '../platform/clock.js';
import { readSetting, writeSetting } from '../db/settings-store.js';
import { twoFactorRequirements, type TwoFactorRequirement } from '../config/workspace-schema.js';
import type { Role } from './roles.js';

export const TWO_FACTOR_SETTING = 'two_factor_requirement';
/** Other nodes see a change within this (spec: effective within 30 seconds); this node at once. */
const CACHE_MS = 10_000;

export { twoFactorRequirements, type TwoFactorRequirement };

/** True when the requirement covers a person of `role`. */
export function requirementCovers(requirement: TwoFactorRequirement, role: Role): boolean {
  switch (requirement) {
    case 'nobody':
      return false;
    case 'operators':
      return role === 'operator';
    case 'approvers_and_operators':
      return role === 'operator' || role === 'approver';
    case 'everyone':
      return true;
  }
}

export class TwoFactorPolicy {
  private cached: { value: TwoFactorRequirement; readAt: number } | null = null;

  constructor(private readonly db: Queryable, private readonly clock: Clock) {}

  async requirement(): Promise<TwoFactorRequirement> {
    const now = this.clock.now();
    if (this.cached && now - this.cached.readAt < CACHE_MS && now >= this.cached.readAt) return this.cached.value;
    const stored = await readSetting<string>(this.db, TWO_FACTOR_SETTING);
    const value = (twoFactorRequirements as readonly string[]).includes(stored ?? '') ? (stored as TwoFactorRequirement) : 'nobody';
    this.cached = { value, readAt: now };
    return value;
  }

  async covers(role: Role): Promise<boolean> {
    return requirementCovers(await this.requirement(), role);
  }

  async set(value: TwoFactorRequirement): Promise<void> {
    const now = this.clock.now();
    await writeSetting(this.db, TWO_FACTOR_SETTING, value, now);
    this.cached = { value, readAt: now };
  }
}
