import {
  decideShowdown,
  ErrorCode,
  fail,
  formatCard,
  isGameId,
  parseShowdown,
  type Card,
  type FeltError,
  type NamedHand,
  type Result,
  type ShowdownResult,
} from '@felt/engine';
import { readLines, writeLine } from '../lines.js';
import type { Command } from './command.js';

interface ShowdownLine {
  game: string;
  board: string[];
  players: string[][];
}

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Parses one JSON line into its plain shape; card texts are checked later by the engine. */
export function parseShowdownLine(line: string): Result<ShowdownLine> {
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch {
    return fail(ErrorCode.BAD_REQUEST, 'not a JSON object');
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return fail(ErrorCode.BAD_REQUEST, 'not a JSON object');
  }
  const { game, board = [], players } = data as Record<string, unknown>;
  if (typeof game !== 'string') return fail(ErrorCode.BAD_REQUEST, '"game" must be a string');
  if (!isGameId(game)) return fail(ErrorCode.UNKNOWN_GAME, `unknown game ${JSON.stringify(game)}`);
  if (!isStringArray(board)) return fail(ErrorCode.BAD_REQUEST, '"board" must be an array of card strings');
  if (!Array.isArray(players) || !players.every(isStringArray)) {
    return fail(ErrorCode.BAD_REQUEST, '"players" must be an array of arrays of card strings');
  }
  return { ok: true, value: { game, board, players } };
}

const shownHand = (hand: NamedHand): { name: string; cards: string[] } => ({
  name: hand.name,
  cards: hand.cards.map((card: Card) => formatCard(card)),
});

function resultJson(result: ShowdownResult): object {
  return {
    winners: result.winners,
    ...(result.lowWinners === null ? {} : { lowWinners: result.lowWinners }),
    hands: result.hands.map(({ high, low }) => ({
      ...shownHand(high),
      ...(result.lowWinners === null ? {} : { low: low && shownHand(low) }),
    })),
  };
}

/** Answers one input line: the decision, or the error that refused it. */
export function answerShowdownLine(
  line: string,
): { ok: true; json: object } | { ok: false; error: FeltError } {
  const parsed = parseShowdownLine(line);
  if (!parsed.ok) return parsed;
  const input = parseShowdown(parsed.value.game, parsed.value.board, parsed.value.players);
  if (!input.ok) return input;
  return { ok: true, json: resultJson(decideShowdown(input.value)) };
}

export const showdown: Command = {
  async run(args) {
    if (args.length > 0) {
      process.stderr.write('usage: felt showdown < showdowns.jsonl\n');
      return 2;
    }
    let rejected = false;
    for await (const line of readLines(process.stdin)) {
      if (line.trim() === '') continue;
      const answer = answerShowdownLine(line);
      if (!answer.ok) rejected = true;
      await writeLine(JSON.stringify(answer.ok ? answer.json : { error: answer.error }));
    }
    return rejected ? 1 : 0;
  },
};
