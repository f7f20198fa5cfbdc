/**
 * `felt admin mute|unmute NAME`: the staff silence a player at every table's chat (RULES of conduct are
 * the room's; the chat is the only thing a mute takes away — he keeps playing). The room reads the mark
 * at each message he sends, so a mute takes effect on a running room at once. Logged to the staff log.
 */
import {
  AdminErrorCode,
  failure,
  logAdminAction,
  withStorage,
  type AdminDatabase,
  type AdminOutcome,
} from '../ledger/admin.js';

export interface Muted {
  readonly ok: true;
  readonly action: 'mute' | 'unmute';
  readonly user: string;
  readonly userId: number;
}

export function adminMute(
  where: AdminDatabase,
  userName: string,
  muted: boolean,
): Promise<AdminOutcome<Muted>> {
  const action = muted ? 'mute' : 'unmute';
  return withStorage(where, async (storage) => {
    const user = await storage.userByName(userName);
    if (user === null) return failure(AdminErrorCode.UNKNOWN_USER, `no user ${JSON.stringify(userName)}`);
    const set = await storage.setMuted(user.id, muted);
    if (!set.ok) return failure(set.error.code, set.error.message);
    const unlogged = await logAdminAction(storage, action, { userId: user.id });
    if (unlogged !== null) return unlogged;
    return { output: { ok: true, action, user: user.name, userId: user.id }, exitCode: 0 };
  });
}
