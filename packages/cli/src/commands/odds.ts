import {
  computeOdds,
  discardChoices,
  ErrorCode,
  fail,
  ok,
  oddsJson,
  parseOddsRequest,
  type FeltError,
  type OddsOptions,
  type OddsRequest,
  type Result,
} from '@felt/engine';
import { writeLine } from '../lines.js';
import type { Command } from './command.js';

const USAGE =
  'usage: felt odds --game ID [--board CARDS] [--dead CARDS] [--samples N] [--seed S] [--discard CARDS] [--discards] HAND HAND …';

/** The most samples one run may ask for. */
const MAX_SAMPLES = 100_000_000;

interface OddsArgs {
  readonly request: OddsRequest;
  readonly options: OddsOptions;
  readonly discards: boolean;
}

const VALUE_FLAGS = ['--game', '--board', '--dead', '--samples', '--seed', '--discard'] as const;
type ValueFlag = (typeof VALUE_FLAGS)[number];
const isValueFlag = (flag: string): flag is ValueFlag => (VALUE_FLAGS as readonly string[]).includes(flag);

function integerArg(flag: string, text: string, min: number, max: number): Result<number> {
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    return fail(
      ErrorCode.BAD_REQUEST,
      `${flag} takes a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`,
    );
  }
  return ok(value);
}

/** Reads the command line: flags (`--flag value` or `--flag=value`) in any order, hands in seat order. */
export function parseOddsArgs(args: readonly string[]): Result<OddsArgs> {
  const values = new Map<ValueFlag, string>();
  const hands: string[] = [];
  let discards = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      hands.push(arg);
      continue;
    }
    const equals = arg.indexOf('=');
    const flag = equals < 0 ? arg : arg.slice(0, equals);
    if (flag === '--discards' && equals < 0) {
      discards = true;
      continue;
    }
    if (!isValueFlag(flag)) return fail(ErrorCode.BAD_REQUEST, `unknown option ${arg}`);
    if (values.has(flag)) return fail(ErrorCode.BAD_REQUEST, `${flag} given twice`);
    const value = equals < 0 ? args[++i] : arg.slice(equals + 1);
    if (value === undefined) return fail(ErrorCode.BAD_REQUEST, `${flag} needs a value`);
    values.set(flag, value);
  }
  const game = values.get('--game');
  if (game === undefined) return fail(ErrorCode.BAD_REQUEST, `--game is required; ${USAGE}`);
  let options: OddsOptions = {};
  const samples = values.get('--samples');
  if (samples !== undefined) {
    const parsed = integerArg('--samples', samples, 1, MAX_SAMPLES);
    if (!parsed.ok) return parsed;
    options = { ...options, samples: parsed.value };
  }
  const seed = values.get('--seed');
  if (seed !== undefined) {
    const parsed = integerArg('--seed', seed, 0, 0xffff_ffff);
    if (!parsed.ok) return parsed;
    options = { ...options, seed: parsed.value };
  }
  const optional = (flag: ValueFlag, key: 'board' | 'dead' | 'discard'): Partial<OddsRequest> => {
    const value = values.get(flag);
    return value === undefined ? {} : { [key]: value };
  };
  return ok({
    request: {
      game,
      hands,
      ...optional('--board', 'board'),
      ...optional('--dead', 'dead'),
      ...optional('--discard', 'discard'),
    },
    options,
    discards,
  });
}

/** Answers one command line: the odds as JSON, or the error that refused it. */
export function answerOdds(
  args: readonly string[],
): { ok: true; json: object } | { ok: false; error: FeltError } {
  const parsed = parseOddsArgs(args);
  if (!parsed.ok) return parsed;
  const { request, options, discards } = parsed.value;
  const spot = parseOddsRequest(request);
  if (!spot.ok) return spot;
  if (discards && spot.value.kind !== 'draw') {
    return fail(ErrorCode.BAD_REQUEST, `--discards is for the draw games, not ${request.game}`);
  }
  if (discards && (spot.value.discard.length > 0 || spot.value.hands[0]!.hidden > 0)) {
    return fail(ErrorCode.BAD_REQUEST, '--discards needs the first hand fully known and no --discard');
  }
  const result = computeOdds(spot.value, options);
  return {
    ok: true,
    json: oddsJson(result, discards ? discardChoices(spot.value, options) : undefined),
  };
}

export const odds: Command = {
  async run(args) {
    if (args.includes('--help') || args.includes('-h')) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const answer = answerOdds(args);
    if (!answer.ok) {
      process.stderr.write(`felt odds: ${answer.error.message}\n${USAGE}\n`);
      await writeLine(JSON.stringify({ error: answer.error }));
      return 1;
    }
    await writeLine(JSON.stringify(answer.json));
    return 0;
  },
};
