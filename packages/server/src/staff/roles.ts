/**
 * Staff roles, behind `felt admin grant|revoke` (packages/cli/src/commands/admin.ts): an operator or an
 * admin is an account that runs the room and plays no real money (the ledger refuses its real-money
 * buy-ins and credits), and signs in with a TOTP code besides its password. Each grant makes a new TOTP
 * key, printed once in its otpauth:// form for the staff member's authenticator; a grant and a revoke
 * end every session of the account, so that none opened under its old standing outlives the change.
 */
import { otpauthUri, newTotpSecret } from '../accounts/totp.js';
import {
  AdminErrorCode,
  failure,
  logAdminAction,
  withStorage,
  type AdminDatabase,
  type AdminOutcome,
} from '../ledger/admin.js';
import type { StaffRole } from '../storage/types.js';

export interface Granted {
  readonly ok: true;
  readonly action: 'grant';
  readonly user: string;
  readonly userId: number;
  readonly role: StaffRole;
  /** The TOTP key for the authenticator: shown here once, never again. */
  readonly otpauth: string;
}

export interface Revoked {
  readonly ok: true;
  readonly action: 'revoke';
  readonly user: string;
  readonly userId: number;
  /** The role the account had; null when it had none (a revoke of a player changes nothing). */
  readonly was: StaffRole | null;
}

/** `felt admin grant NAME operator|admin`. */
export function adminGrant(
  where: AdminDatabase,
  userName: string,
  role: StaffRole,
): Promise<AdminOutcome<Granted>> {
  return withStorage(where, async (storage) => {
    const user = await storage.userByName(userName);
    if (user === null) return failure(AdminErrorCode.UNKNOWN_USER, `no user ${JSON.stringify(userName)}`);
    const totpSecret = newTotpSecret();
    const set = await storage.setRole(user.id, { role, totpSecret });
    if (!set.ok) return failure(set.error.code, set.error.message);
    const unlogged = await logAdminAction(storage, 'grant', { userId: user.id, role });
    if (unlogged !== null) return unlogged;
    return {
      output: {
        ok: true,
        action: 'grant',
        user: user.name,
        userId: user.id,
        role,
        otpauth: otpauthUri(totpSecret, user.name),
      },
      exitCode: 0,
    };
  });
}

/** `felt admin revoke NAME`: a player again. */
export function adminRevoke(where: AdminDatabase, userName: string): Promise<AdminOutcome<Revoked>> {
  return withStorage(where, async (storage) => {
    const user = await storage.userByName(userName);
    if (user === null) return failure(AdminErrorCode.UNKNOWN_USER, `no user ${JSON.stringify(userName)}`);
    if (user.role !== null) {
      const set = await storage.setRole(user.id, null);
      if (!set.ok) return failure(set.error.code, set.error.message);
      const unlogged = await logAdminAction(storage, 'revoke', { userId: user.id, was: user.role });
      if (unlogged !== null) return unlogged;
    }
    return {
      output: { ok: true, action: 'revoke', user: user.name, userId: user.id, was: user.role },
      exitCode: 0,
    };
  });
}
