/** The contract every PlayerNotes implementation passes. Test names say the rule they check. */
import { describe, expect, it } from 'vitest';
import type { AccountStore, HandJournal, Ledger, PlayerNotes } from '../src/storage/index.js';
import { handStarted, opener, user, type Closable } from './storage-contract-helpers.js';

export function playerNotesContract(
  name: string,
  factory: () => Promise<PlayerNotes & AccountStore & Ledger & HandJournal & Closable>,
): void {
  describe(`PlayerNotes contract: ${name}`, () => {
    const open = opener(factory);

    it("a note replaces the owner's last one on that player, is his alone, and an empty one without a colour is gone", async () => {
      const storage = await open();
      const [ann, bob, cleo] = [
        await user(storage, 'ann'),
        await user(storage, 'bob'),
        await user(storage, 'cleo'),
      ];
      expect(await storage.notesOf(ann)).toEqual([]);
      expect((await storage.setNote(ann, cleo, { colour: 'red', note: 'bluffs the river' })).ok).toBe(true);
      expect((await storage.setNote(ann, bob, { colour: null, note: 'tight' })).ok).toBe(true);
      expect((await storage.setNote(ann, cleo, { colour: 'green', note: 'calls down, l’été' })).ok).toBe(
        true,
      );
      expect((await storage.notesOf(ann)).map((note) => ({ ...note, updatedAt: 0 }))).toEqual([
        { about: bob, aboutName: 'bob', colour: null, note: 'tight', updatedAt: 0 },
        { about: cleo, aboutName: 'cleo', colour: 'green', note: 'calls down, l’été', updatedAt: 0 },
      ]);
      expect(await storage.notesOf(bob)).toEqual([]);
      expect((await storage.setNote(ann, bob, { colour: null, note: '' })).ok).toBe(true);
      expect((await storage.notesOf(ann)).map((note) => note.about)).toEqual([cleo]);
      // A colour alone is a note.
      expect((await storage.setNote(bob, ann, { colour: 'blue', note: '' })).ok).toBe(true);
      expect(await storage.notesOf(bob)).toMatchObject([{ about: ann, colour: 'blue', note: '' }]);
    });

    it('players dealt into one hand have played together, both ways; a player dealt into none with them has not', async () => {
      const storage = await open();
      const { ann, bob } = await handStarted(storage);
      const cleo = await user(storage, 'cleo');
      expect(await storage.playedTogether(ann, bob)).toBe(true);
      expect(await storage.playedTogether(bob, ann)).toBe(true);
      expect(await storage.playedTogether(ann, cleo)).toBe(false);
      expect(await storage.playedTogether(cleo, bob)).toBe(false);
    });

    it('a note on an unknown account, or too long, is refused and changes nothing', async () => {
      const storage = await open();
      const ann = await user(storage, 'ann');
      const unknown = await storage.setNote(ann, ann + 1000, { colour: 'red', note: 'x' });
      expect(unknown.ok ? null : unknown.error.code).toBe('UNKNOWN_USER');
      const long = await storage.setNote(ann, ann, { colour: null, note: 'x'.repeat(501) });
      expect(long.ok ? null : long.error.code).toBe('BAD_REQUEST');
      expect(await storage.notesOf(ann)).toEqual([]);
    });
  });
}
