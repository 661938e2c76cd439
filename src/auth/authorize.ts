// The one role check: a resolved principal against the role an action needs (DESIGN rule 9).
import type { Principal } from './principal.js';
import { forbidden, RoleRequiredError, unauthorized } from '../domain/errors.js';
import { roleAtLeast, type Role } from './roles.js';

/**
 * The principal when it may act with `need`: 401 without one, 403 when it is restricted (temporary
 * password, missing two-factor) and the action does not allow that, 403 below the role.
 */
export function authorize(principal: Principal | null, need: Role, allowRestricted = false): Principal {
  if (!principal) throw unauthorized('Authentication required');
  if (principal.restricted && !allowRestricted) throw forbidden(restrictionMessage(principal));
  if (!roleAtLeast(principal.role, need)) throw new RoleRequiredError(need);
  return principal;
}

/** Why a restricted principal is refused; a token is restricted by its owner's state (it acts for them). */
function restrictionMessage(principal: Principal): string {
  if (principal.kind === 'token')
    return principal.restricted === 'temporary_password'
      ? "This API token's owner must choose their own password on the Account page first"
      : "This API token's owner must turn on two-factor sign-in on the Account page first";
  return principal.restricted === 'temporary_password'
    ? 'Choose your own password on the Account page first'
    : 'Two-factor sign-in is required: turn it on on the Account page';
}
