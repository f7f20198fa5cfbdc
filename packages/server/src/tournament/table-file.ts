/**
 * The tournaments of the room's table file (the same JSON file as its tables, `DATA/tables.json` by
 * default: `{ "tables": […], "tournaments": [TournamentEntry, …], "cancelled": [run id, …] }`), checked
 * by ./schedule.ts. No file, or a file without tournaments, is none; a broken list is an error (the
 * operator should know). `felt admin tournament` edits the file; the running room reads it again at
 * each of its polls (./room.ts), so the file is the one place tournaments are defined and cancelled.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { checkTournamentSet, type TournamentEntry } from './schedule.js';

export interface TournamentFile {
  readonly entries: readonly TournamentEntry[];
  /** Runs to cancel (every buy-in and fee back), by run id. */
  readonly cancelled: readonly string[];
}

async function readJson(file: string): Promise<Record<string, unknown> | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const parsed = JSON.parse(text) as unknown;
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : {};
}

export async function loadTournamentFile(file: string | null): Promise<TournamentFile> {
  const json = file === null ? null : await readJson(file);
  if (json === null) return { entries: [], cancelled: [] };
  const list = json.tournaments ?? [];
  if (!Array.isArray(list)) throw new Error(`${file}: "tournaments" is a list`);
  const checked = checkTournamentSet(list as TournamentEntry[]);
  if (!checked.ok) throw new Error(`${file}: ${checked.error.message}`);
  const cancelled = json.cancelled ?? [];
  if (!Array.isArray(cancelled) || !cancelled.every((id) => typeof id === 'string'))
    throw new Error(`${file}: "cancelled" is a list of run ids`);
  return { entries: checked.value, cancelled: cancelled };
}

export async function loadTournamentSet(file: string | null): Promise<readonly TournamentEntry[]> {
  return (await loadTournamentFile(file)).entries;
}

/**
 * Adds a tournament entry (checked with the others) or a run to cancel to the table file, written
 * whole to a new file renamed over the old, so that the room never reads half a file.
 */
export async function editTournamentFile(
  file: string,
  change: { readonly add: TournamentEntry } | { readonly cancel: string },
): Promise<TournamentFile> {
  const json = await readJson(file);
  if (json === null) throw new Error(`${file}: no table file (write its "tables" first)`);
  const current = await loadTournamentFile(file);
  const next: TournamentFile =
    'add' in change
      ? { entries: [...current.entries, change.add], cancelled: current.cancelled }
      : {
          entries: current.entries,
          cancelled: current.cancelled.includes(change.cancel)
            ? current.cancelled
            : [...current.cancelled, change.cancel],
        };
  const checked = checkTournamentSet(next.entries);
  if (!checked.ok) throw new Error(checked.error.message);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(
    temporary,
    `${JSON.stringify({ ...json, tournaments: next.entries, cancelled: next.cancelled }, null, 2)}\n`,
  );
  await rename(temporary, file);
  return next;
}
