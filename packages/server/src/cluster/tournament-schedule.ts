/**
 * The tournament schedule of a room on several processes: the member holding the schedule's lease
 * (`#tournaments`, ./tournaments.ts) opens the runs due — a sit & go run whenever the entry has none
 * open, each scheduled entry's next run — once for the whole room, by storing each new run's checkpoint
 * through that lease (fenced, ./fence.ts). Nothing of the run plays here: the members take the runs
 * stored in play by their own leases. The runs the table file cancels are cancelled by the members
 * directing them (each run's room reads the file at its polls, ../tournament/room.ts).
 */
import type { Storage } from '../storage/types.js';
import type { TableClock } from '../table/types.js';
import { storedCheckpoint, storeCheckpoints } from '../tournament/checkpoint.js';
import { openingCheckpoint } from '../tournament/room.js';
import { runsDue } from '../tournament/schedule.js';
import type { TournamentFile } from '../tournament/table-file.js';

/**
 * Stores the runs due now (on storage fenced by the schedule's lease); returns their ids. Run every
 * second by the schedule's holder, it reads the ids in play and only the checkpoints of the sit & go
 * runs in play (one table at most each), to know whether their entry has one open for registration.
 */
export async function openRunsDue(
  storage: Pick<Storage, 'tournamentIdsInPlay' | 'storedTournament' | 'saveTournament'>,
  file: TournamentFile,
  clock: TableClock,
): Promise<string[]> {
  const ids = await storage.tournamentIdsInPlay();
  const registering = await entriesRegistering(storage, file, ids);
  const known = new Set([...ids, ...file.cancelled]);
  const due = runsDue(file.entries, clock.now(), {
    registering: (entryId) => registering.has(entryId),
    known: (runId) => known.has(runId),
  });
  const save = storeCheckpoints(storage);
  const opened: string[] = [];
  for (const run of due) {
    // A run over already (a scheduled one cancelled before its start) is not opened again.
    if ((await storage.storedTournament(run.id)) !== null) continue;
    await save(await openingCheckpoint(run, clock));
    opened.push(run.id);
  }
  return opened;
}

/** The sit & go entries with a run open for registration among the runs `inPlay`. */
async function entriesRegistering(
  storage: Pick<Storage, 'storedTournament'>,
  file: TournamentFile,
  inPlay: readonly string[],
): Promise<Set<string>> {
  const registering = new Set<string>();
  for (const entry of file.entries) {
    if (entry.schedule !== undefined) continue;
    for (const id of inPlay.filter((runId) => runId.startsWith(`${entry.id}@`))) {
      const stored = await storage.storedTournament(id);
      if (stored !== null && storedCheckpoint(stored).phase === 'registering') {
        registering.add(entry.id);
        break;
      }
    }
  }
  return registering;
}
