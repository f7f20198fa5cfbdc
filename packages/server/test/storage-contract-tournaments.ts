/** The contract every TournamentStore implementation passes. Test names say the rule they check. */
import { describe, expect, it } from 'vitest';
import type { TournamentStore } from '../src/storage/index.js';
import { opener, type Closable } from './storage-contract-helpers.js';

export function tournamentStoreContract(
  name: string,
  factory: () => Promise<TournamentStore & Closable>,
): void {
  describe(`TournamentStore contract: ${name}`, () => {
    const open = opener(factory);

    it('a checkpoint replaces the last one of its tournament; the tournaments over are no longer in play', async () => {
      const storage = await open();
      expect(await storage.tournamentsInPlay()).toEqual([]);
      await storage.saveTournament('mtt-2', '{"step":1}', false);
      await storage.saveTournament('mtt-1', '{"step":1}', false);
      await storage.saveTournament('mtt-2', '{"step":2, "name":"l’été"}', false);
      expect(await storage.tournamentsInPlay()).toEqual([
        { id: 'mtt-1', checkpoint: '{"step":1}' },
        { id: 'mtt-2', checkpoint: '{"step":2, "name":"l’été"}' },
      ]);
      await storage.saveTournament('mtt-1', '{"step":9}', true);
      expect(await storage.tournamentsInPlay()).toEqual([
        { id: 'mtt-2', checkpoint: '{"step":2, "name":"l’été"}' },
      ]);
    });

    it('the ids of the tournaments in play are read without their checkpoints, by id; those over are not', async () => {
      const storage = await open();
      expect(await storage.tournamentIdsInPlay()).toEqual([]);
      await storage.saveTournament('mtt-b', '{"step":1}', false);
      await storage.saveTournament('mtt-a', '{"step":1}', false);
      await storage.saveTournament('mtt-c', '{"step":1}', true);
      expect(await storage.tournamentIdsInPlay()).toEqual(['mtt-a', 'mtt-b']);
      await storage.saveTournament('mtt-a', '{"step":2}', true);
      await storage.saveTournament('mtt-c', '{"step":2}', false);
      expect(await storage.tournamentIdsInPlay()).toEqual(['mtt-b', 'mtt-c']);
    });

    it("a tournament's last checkpoint is read back by id, in play or over; none is stored for an unknown id", async () => {
      const storage = await open();
      await storage.saveTournament('sng-1', '{"step":1}', false);
      await storage.saveTournament('sng-1', '{"step":2}', true);
      await storage.saveTournament('sng-2', '{"step":1}', false);
      expect(await storage.storedTournament('sng-1')).toEqual({ id: 'sng-1', checkpoint: '{"step":2}' });
      expect(await storage.storedTournament('sng-2')).toEqual({ id: 'sng-2', checkpoint: '{"step":1}' });
      expect(await storage.storedTournament('sng-3')).toBeNull();
    });

    it('the tournaments ended last are read back, the last ended first, as many as asked; those in play are not', async () => {
      const storage = await open();
      await storage.saveTournament('sng-a', '{"step":1}', false);
      await storage.saveTournament('sng-a', '{"step":2}', true);
      await storage.saveTournament('sng-b', '{"step":1}', true);
      await storage.saveTournament('sng-c', '{"step":1}', false);
      const ended = await storage.endedTournamentIds(5);
      expect(await Promise.all(ended.map((id) => storage.storedTournament(id)))).toEqual([
        { id: 'sng-b', checkpoint: '{"step":1}' },
        { id: 'sng-a', checkpoint: '{"step":2}' },
      ]);
      expect(await storage.endedTournamentIds(1)).toEqual(['sng-b']);
    });
  });
}
