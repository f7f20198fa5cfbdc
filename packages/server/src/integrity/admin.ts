/** `felt admin integrity`: the game-security reports of the room's database as one JSON document. */
import { withStorage, type AdminDatabase, type AdminOutcome } from '../ledger/admin.js';
import { roomIntegrity, type IntegrityDocument } from './index.js';

export function adminIntegrity(where: AdminDatabase): Promise<AdminOutcome<IntegrityDocument>> {
  return withStorage(where, async (storage) => ({ output: await roomIntegrity(storage), exitCode: 0 }));
}
