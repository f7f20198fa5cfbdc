import { parseArgs } from 'node:util';
import {
  ROOM_GAMES,
  STRUCTURE_CODES,
  STRUCTURES,
  runBots,
  type RoomGame,
  type StructureName,
} from '@felt/server';
import { writeLine } from '../lines.js';
import type { Command } from './command.js';

const USAGE =
  'usage: felt bots --url ws://HOST:PORT [--url …] --bots N [--game ID] [--structure fl|sl|pl|hpl|nl]\n' +
  '                 [--hands H] [--seconds S] [--think-ms MS] [--think-spread F]\n' +
  '                 [--prefix NAME] [--tournament ID] [--detail]\n' +
  '  signs up N bots (retrying the connection while the server starts) that sit down at play-money\n' +
  '  tables of one kind and play until H hands or S seconds (counted from when all are seated; neither:\n' +
  '  until SIGINT/SIGTERM), thinking MS ± F·MS (default 500 ± 0.5·500, uniform) before each action,\n' +
  '  then leave and print one line\n' +
  '  {"hands":…,"actions":…,"errors":…,"latency_ms":{"p50":…,"p99":…}} (--detail: more fields).\n' +
  `  games: ${ROOM_GAMES.join(' ')} (default holdem); structure default no-limit.\n` +
  '  Several --url (the processes of one room): the bots are spread over them, and a bot whose\n' +
  '  connection drops reconnects to the next address, resumes its session and plays on at its seat.\n' +
  '  --tournament ID: the bots register for that tournament instead (play money topped up if short)\n' +
  '  and play wherever the room seats them, moves included, until it is over (or H hands, S seconds).\n';

export interface BotsArgs {
  readonly urls: readonly string[];
  readonly bots: number;
  readonly game?: RoomGame;
  readonly structure?: StructureName;
  readonly hands?: number;
  readonly seconds?: number;
  readonly thinkMs: number;
  readonly thinkSpread?: number;
  readonly prefix?: string;
  readonly tournament?: string;
  readonly detail: boolean;
}

const whole = (text: string, name: string, min: number): number | string => {
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  return Number.isSafeInteger(value) && value >= min ? value : `--${name} takes a whole number ≥ ${min}`;
};

/** Reads the arguments; a message when they are wrong. */
export function parseBotsArgs(args: readonly string[]): BotsArgs | string {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      options: {
        url: { type: 'string', multiple: true },
        bots: { type: 'string' },
        game: { type: 'string' },
        structure: { type: 'string' },
        hands: { type: 'string' },
        seconds: { type: 'string' },
        'think-ms': { type: 'string' },
        'think-spread': { type: 'string' },
        prefix: { type: 'string' },
        tournament: { type: 'string' },
        detail: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    return (error as Error).message;
  }
  const urls = values.url ?? [];
  if (urls.length === 0) return '--url is required';
  const wrong = urls.find((url) => !/^wss?:\/\/[^\s/]+/.test(url));
  if (wrong !== undefined) return `--url must be ws://HOST:PORT (not ${wrong})`;
  if (values.bots === undefined) return '--bots is required';
  const bots = whole(values.bots, 'bots', 1);
  if (typeof bots === 'string') return bots;
  let game: RoomGame | undefined;
  if (values.game !== undefined) {
    game = ROOM_GAMES.find((id) => id === values.game);
    if (game === undefined) return `--game must be one of ${ROOM_GAMES.join(', ')}`;
  }
  let structure: StructureName | undefined;
  if (values.structure !== undefined) {
    const code = values.structure;
    structure =
      Object.entries(STRUCTURE_CODES).find(([short]) => short === code)?.[1] ??
      STRUCTURES.find((name) => name === code);
    if (structure === undefined) return '--structure must be fl, sl, pl, hpl or nl';
  }
  const hands = values.hands === undefined ? undefined : whole(values.hands, 'hands', 1);
  if (typeof hands === 'string') return hands;
  let seconds: number | undefined;
  if (values.seconds !== undefined) {
    seconds = Number(values.seconds);
    if (!/^\d+(\.\d+)?$/.test(values.seconds) || !(seconds > 0)) return '--seconds takes a number above 0';
  }
  const thinkMs = values['think-ms'] === undefined ? 500 : whole(values['think-ms'], 'think-ms', 0);
  if (typeof thinkMs === 'string') return thinkMs;
  let thinkSpread: number | undefined;
  if (values['think-spread'] !== undefined) {
    thinkSpread = Number(values['think-spread']);
    if (!/^\d+(\.\d+)?$/.test(values['think-spread']) || !(thinkSpread <= 1))
      return '--think-spread takes a number from 0 to 1';
  }
  if (values.prefix !== undefined && !/^[A-Za-z0-9_.-]{1,12}$/.test(values.prefix))
    return '--prefix takes 1–12 of A-Z a-z 0-9 _ . -';
  if (values.tournament !== undefined && !/^[A-Za-z0-9_.:@-]{1,80}$/.test(values.tournament))
    return '--tournament takes a tournament id (as tournament-list gives it)';
  return {
    urls,
    bots,
    ...(game !== undefined ? { game } : {}),
    ...(structure !== undefined ? { structure } : {}),
    ...(hands !== undefined ? { hands } : {}),
    ...(seconds !== undefined ? { seconds } : {}),
    thinkMs,
    ...(thinkSpread !== undefined ? { thinkSpread } : {}),
    ...(values.prefix !== undefined ? { prefix: values.prefix } : {}),
    ...(values.tournament !== undefined ? { tournament: values.tournament } : {}),
    detail: values.detail,
  };
}

export const bots: Command = {
  async run(args) {
    if (args.includes('--help') || args.includes('-h')) {
      process.stdout.write(USAGE);
      return 0;
    }
    const parsed = parseBotsArgs(args);
    if (typeof parsed === 'string') {
      process.stderr.write(`felt bots: ${parsed}\n${USAGE}`);
      return 2;
    }
    const abort = new AbortController();
    const onSignal = (): void => {
      abort.abort();
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      const result = await runBots({
        url: parsed.urls,
        bots: parsed.bots,
        thinkMs: parsed.thinkMs,
        signal: abort.signal,
        log: (line) => process.stderr.write(`${line}\n`),
        ...(parsed.game !== undefined ? { game: parsed.game } : {}),
        ...(parsed.structure !== undefined ? { structure: parsed.structure } : {}),
        ...(parsed.hands !== undefined ? { hands: parsed.hands } : {}),
        ...(parsed.thinkSpread !== undefined ? { thinkSpread: parsed.thinkSpread } : {}),
        ...(parsed.seconds !== undefined ? { seconds: parsed.seconds } : {}),
        ...(parsed.prefix !== undefined ? { prefix: parsed.prefix } : {}),
        ...(parsed.tournament !== undefined ? { tournament: parsed.tournament } : {}),
      });
      const { hands, actions, errors, latency_ms } = result;
      await writeLine(JSON.stringify(parsed.detail ? result : { hands, actions, errors, latency_ms }));
      return 0;
    } catch (error) {
      process.stderr.write(`felt bots: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
};
