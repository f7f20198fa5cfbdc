/**
 * The room's table set: a default covering all 13 games in all five structures (play money), a
 * practice table of each game (house bots, ../practice), and a few real-money tables; or a JSON file `{ "tables": [TableConfig, …] }` (by default `DATA/tables.json`
 * when it exists). Each configured table is the first of its KIND (game, structure, currency, stakes):
 * when every table of a kind is full, the lobby opens another of the same kind.
 */
import { readFile } from 'node:fs/promises';
import { gameTitle, STRUCTURES, variantOf, type Structure } from '@felt/engine';
import { ROOM_GAMES, STRUCTURE_CODES } from '@felt/protocol';
import { checkHouseBots, SEATS_KEPT_FREE, type PracticeConfig } from '../practice/config.js';
import { resolveTable } from '../table/config.js';
import type { TableConfig } from '../table/types.js';

const SHORT: Readonly<Record<Structure, string>> = Object.fromEntries(
  Object.entries(STRUCTURE_CODES).map(([code, name]) => [name, code]),
) as Record<Structure, string>;

/** "No Limit Hold'em 0.50/1", "Limit 7-card Stud 1/2". */
export function tableName(config: Omit<TableConfig, 'name' | 'id'>): string {
  return `${gameTitle(config.game, config.structure)} ${resolveTable({ ...config, id: '', name: '' }).stakesText}`;
}

function table(
  game: (typeof ROOM_GAMES)[number],
  structure: Structure,
  currency: 'play' | 'real',
  small: number,
  big: number,
): TableConfig {
  const config = { game, structure, stakes: { small, big }, currency } as const;
  return {
    id: `${game}-${SHORT[structure]}-${currency}-${small}`,
    name: `${tableName(config)}${currency === 'play' ? ' (play)' : ''}`,
    ...config,
  };
}

/** Seats the house bots fill at a default practice table (fewer where the game seats fewer). */
const PRACTICE_BOTS = 4;

/**
 * A practice table of each game, at the structure the game is mostly played at: no-limit hold'em,
 * pot-limit Omaha (4 and 5 cards), every other game limit.
 */
function practiceTable(game: (typeof ROOM_GAMES)[number]): PracticeConfig {
  const structure: Structure =
    game === 'holdem' ? 'no-limit' : game === 'omaha' || game === 'omaha5' ? 'pot-limit' : 'fixed-limit';
  const config = { game, structure, stakes: { small: 100, big: 200 }, currency: 'play' } as const;
  return {
    id: `practice-${game}`,
    name: `${tableName(config)} (practice)`,
    ...config,
    houseBots: Math.min(PRACTICE_BOTS, variantOf(game).seats - SEATS_KEPT_FREE),
  };
}

/**
 * The default set: a practice table of each game with house bots (13), every game in every structure
 * at play-money 1/2 (65 tables), and real-money tables at the stakes of RULES.md §1: hold'em in all
 * five structures, Omaha pot limit, 7-card stud limit.
 */
export function defaultTableSet(): PracticeConfig[] {
  const tables: PracticeConfig[] = ROOM_GAMES.map(practiceTable);
  for (const game of ROOM_GAMES)
    for (const structure of STRUCTURES) tables.push(table(game, structure, 'play', 100, 200));
  tables.push(table('holdem', 'fixed-limit', 'real', 25, 50));
  tables.push(table('holdem', 'spread-limit', 'real', 100, 200));
  tables.push(table('holdem', 'pot-limit', 'real', 50, 100));
  tables.push(table('holdem', 'half-pot-limit', 'real', 50, 100));
  tables.push(table('holdem', 'no-limit', 'real', 50, 100));
  tables.push(table('omaha', 'pot-limit', 'real', 50, 100));
  tables.push(table('stud', 'fixed-limit', 'real', 100, 200));
  return tables;
}

/** Checks a table set: unique ids, and every table one the room can run (throws with the reason). */
export function checkTableSet(tables: readonly PracticeConfig[]): void {
  const ids = new Set<string>();
  for (const config of tables) {
    if (ids.has(config.id)) throw new Error(`table set: the id ${config.id} appears twice`);
    if (!/^[A-Za-z0-9_.:-]{1,48}$/.test(config.id))
      throw new Error(`table set: bad id ${JSON.stringify(config.id)}`);
    ids.add(config.id);
    resolveTable(config);
    checkHouseBots(config);
  }
}

/**
 * The table set of the file, when given and present; else the default. A file that exists but is
 * broken is an error (the operator should know), not a silent fallback.
 */
export async function loadTableSet(file: string | null): Promise<PracticeConfig[]> {
  if (file === null) return defaultTableSet();
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return defaultTableSet();
    throw error;
  }
  const parsed = JSON.parse(text) as unknown;
  const list = typeof parsed === 'object' && parsed !== null && 'tables' in parsed ? parsed.tables : parsed;
  if (!Array.isArray(list) || list.length === 0) throw new Error(`${file}: expected { "tables": [ … ] }`);
  const tables = list as PracticeConfig[];
  checkTableSet(tables);
  return tables;
}
