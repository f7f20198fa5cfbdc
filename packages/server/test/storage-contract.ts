/**
 * THE contract every Storage implementation passes (ARCHITECTURE habit 7): the contract of each of its
 * parts, and the schema's life cycle — one suite, a factory per implementation. A part implemented
 * on its own runs its own suite (storage-contract-*.ts) composed with the others.
 */
import { describe, expect, it } from 'vitest';
import type { Storage } from '../src/storage/index.js';
import { accountStoreContract } from './storage-contract-accounts.js';
import { opener, user } from './storage-contract-helpers.js';
import { handHistoriesContract } from './storage-contract-histories.js';
import { handJournalContract } from './storage-contract-journal.js';
import { ledgerContract } from './storage-contract-ledger.js';
import { ledgerLookupsContract } from './storage-contract-ledger-lookups.js';
import { playerNotesContract } from './storage-contract-notes.js';
import { staffAuditContract } from './storage-contract-staff.js';
import { tournamentStoreContract } from './storage-contract-tournaments.js';

/** Makes a fresh, empty, migrated storage. */
export type StorageFactory = () => Promise<Storage>;

export function storageContract(name: string, factory: StorageFactory): void {
  describe(`Storage contract: ${name}`, () => {
    const open = opener(factory);

    it('migrations are idempotent: migrating again changes nothing', async () => {
      const storage = await open();
      const id = await user(storage, 'ann');
      await storage.migrate();
      await storage.migrate();
      expect((await storage.userById(id))?.name).toBe('ann');
    });
  });
  accountStoreContract(name, factory);
  ledgerContract(name, factory);
  ledgerLookupsContract(name, factory);
  tournamentStoreContract(name, factory);
  handJournalContract(name, factory);
  handHistoriesContract(name, factory);
  staffAuditContract(name, factory);
  playerNotesContract(name, factory);
}
