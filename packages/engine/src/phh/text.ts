/**
 * A readable hand history in the style players know from the big rooms (PokerStars-like), written from
 * a PHH hand, and read back: the text carries every PHH field Felt interprets, so that reading what
 * was written gives the same hand (without action comments and uninterpreted fields other than
 * `players`).
 */
import type { GameId } from '../eval/games.js';
import type { Structure } from '../hand/types.js';
import { variantOf } from '../hand/variants.js';
import { fail, ok, type Result } from '../result.js';
import { formatPhhCards, parsePhhCards } from './actions.js';
import { PhhErrorCode, type PhhAction, type PhhCard, type PhhHand } from './types.js';
import { readRuns, runsFields } from './runs.js';
import { parseVariantCode, type BettingStructure } from './variants.js';

/** The room's names of the betting structures. */
const STRUCTURE_TITLES: Record<Structure, string> = {
  'fixed-limit': 'Limit',
  'spread-limit': 'Spread Limit',
  'pot-limit': 'Pot Limit',
  'half-pot-limit': '½ Pot Limit',
  'no-limit': 'No Limit',
};

const STRUCTURE_OF: Record<BettingStructure, Structure> = {
  fixed: 'fixed-limit',
  spread: 'spread-limit',
  pot: 'pot-limit',
  'half-pot': 'half-pot-limit',
  'no-limit': 'no-limit',
};

/** The structures whose bets are sized by the pot or the stack, named by their blinds (RULES.md §1). */
export const isBigBet = (structure: Structure): boolean =>
  structure === 'no-limit' || structure === 'pot-limit' || structure === 'half-pot-limit';

/**
 * How the room names a game at a structure, the way card rooms do: "No Limit Hold'em", "Pot Limit
 * Omaha", "Limit 7-card Stud". Followed by the stakes: a big-bet game's blinds (or bring-in and minimum
 * bet), a limit game's small and big bet.
 */
export function gameTitle(game: GameId, structure: Structure): string {
  return `${STRUCTURE_TITLES[structure]} ${game === 'holdem' ? "Hold'em" : variantOf(game).name}`;
}

/** Stakes as the room prints them, each amount whole or with `scale` decimals: "0.50/1", "0.25/0.50", "1/2". */
export function stakesLabel(amounts: readonly number[], scale: number): string {
  return amounts
    .map((amount) => (amount % 10 ** scale === 0 ? String(amount / 10 ** scale) : money(amount, scale)))
    .join('/');
}

/** Amounts with exactly `scale` decimals, as rooms print cents. */
function money(amount: number, scale: number): string {
  if (scale === 0) return String(amount);
  const digits = String(Math.abs(amount)).padStart(scale + 1, '0');
  return `${amount < 0 ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

const cardsInBrackets = (cards: readonly PhhCard[]): string =>
  `[${(formatPhhCards(cards).match(/../g) ?? []).join(' ')}]`;

/** Player names: the hand's `players` field when it names everybody distinctly and plainly, else p1, p2 …. */
function namesOf(hand: PhhHand): string[] {
  const players = hand.extra.players;
  const count = hand.startingStacks.length;
  if (
    Array.isArray(players) &&
    players.length === count &&
    players.every(
      (name) => typeof name === 'string' && /^[^\s:[\]()#][^:[\]()#]*$/.test(name) && name.trim() === name,
    ) &&
    new Set(players).size === count
  ) {
    return players as string[];
  }
  return Array.from({ length: count }, (_, i) => `p${i + 1}`);
}

/** Heads-up PHH lists forced bets (antes too) small blind first while p1 posts the big one. */
function effective(list: readonly number[], players: number): number[] {
  return players === 2 ? [...list].reverse() : [...list];
}

const BOARD_NAMES = ['FLOP', 'TURN', 'RIVER'];

/**
 * Writes the hand as a readable text history; `number` is the hand number shown in the header. Amounts
 * get at least `decimals` decimals: a real-money room prints cents even when a hand's amounts, read back
 * from its PHH file, are all whole units (the file then says nothing of cents).
 */
export function phhToText(hand: PhhHand, number = 1, decimals = 0): Result<string, PhhErrorCode> {
  const variant = parseVariantCode(hand.variant);
  if (variant === null)
    return fail(PhhErrorCode.UNKNOWN_VARIANT, `unknown variant ${JSON.stringify(hand.variant)}`);
  const game = variantOf(variant.game);
  const runs = readRuns(hand.extra);
  if (typeof runs === 'string') return fail(PhhErrorCode.BAD_PHH, runs);
  // Run twice: the cards after the `shared` ones are dealt once for each run, the first run's first.
  let fullBoard = 0;
  for (const spec of game.streets) fullBoard += spec.board;
  let boardDealt = 0;
  for (const action of hand.actions) if (action.kind === 'deal-board') boardDealt += action.cards.length;
  const shared = runs === 2 ? 2 * fullBoard - boardDealt : fullBoard;
  let second: PhhCard[] | null = null;
  const names = namesOf(hand);
  const count = names.length;
  const shown = Math.max(decimals, hand.scale);
  const m = (amount: number): string => money(amount * 10 ** (shown - hand.scale), shown);
  const lines: string[] = [];
  const blinds = hand.blindsOrStraddles ?? [];
  const structure = STRUCTURE_OF[variant.structure];
  const minBet = hand.minBet ?? hand.smallBet ?? 0;
  const stakes = !isBigBet(structure)
    ? [hand.smallBet ?? minBet, hand.bigBet ?? minBet]
    : variant.bringIn
      ? [hand.bringIn ?? 0, minBet]
      : [blinds[0] ?? 0, blinds[1] ?? 0];
  const scaled = stakes.map((amount) => amount * 10 ** (shown - hand.scale));
  lines.push(
    `Felt Hand #${number}: ${gameTitle(variant.game, structure)} ${stakesLabel(scaled, shown)} [${hand.variant}]`,
  );
  const table =
    typeof hand.extra.table === 'string' && hand.extra.table.trim() !== '' ? hand.extra.table : 'Felt';
  lines.push(`Table '${table}' ${count}-max${variant.bringIn ? '' : ` Seat #${count} is the button`}`);
  const limits: string[] = [];
  if (hand.minBet !== undefined) limits.push(`min bet ${m(hand.minBet)}`);
  if (hand.smallBet !== undefined) limits.push(`small bet ${m(hand.smallBet)}`);
  if (hand.bigBet !== undefined) limits.push(`big bet ${m(hand.bigBet)}`);
  if (hand.bringIn !== undefined) limits.push(`bring-in ${m(hand.bringIn)}`);
  if (hand.spreadLimits !== undefined) limits.push(`spread limits ${hand.spreadLimits.map(m).join('/')}`);
  if (hand.anteTrimmingStatus !== undefined)
    limits.push(`ante trimming ${hand.anteTrimmingStatus ? 'on' : 'off'}`);
  lines.push(`Betting: ${limits.join(', ')}`);
  hand.startingStacks.forEach((stack, i) => lines.push(`Seat ${i + 1}: ${names[i]!} (${m(stack)} in chips)`));

  // Chips, street bets and all-ins, followed only as far as the text's amounts need them.
  const stacks = [...hand.startingStacks];
  const bets = stacks.map(() => 0);
  let currentBet = 0;
  let bringInOnly = false;
  const put = (player: number, amount: number): { amount: number; allIn: boolean } => {
    const paid = Math.min(amount, stacks[player] ?? 0);
    stacks[player] = (stacks[player] ?? 0) - paid;
    bets[player] = (bets[player] ?? 0) + paid;
    return { amount: paid, allIn: paid > 0 && stacks[player] === 0 };
  };
  effective(hand.antes, count).forEach((ante, i) => {
    if (ante <= 0) return;
    const paid = Math.min(ante, stacks[i] ?? 0);
    stacks[i] = (stacks[i] ?? 0) - paid;
    lines.push(`${names[i]!}: posts the ante ${m(ante)}`);
  });
  if (!variant.bringIn) {
    effective(blinds, count).forEach((blind, i) => {
      if (blind <= 0) return;
      const index = count === 2 ? 1 - i : i;
      const label = index === 0 ? 'small blind' : index === 1 ? 'big blind' : 'straddle';
      put(i, blind);
      lines.push(`${names[i]!}: posts ${label} ${m(blind)}`);
    });
    currentBet = Math.max(0, ...bets);
  }
  lines.push('*** HOLE CARDS ***');
  let betting = false;
  let street = 0;
  const board: PhhCard[] = [];
  const newStreet = (): void => {
    if (!betting) return;
    betting = false;
    street += 1;
    bets.fill(0);
    currentBet = 0;
    bringInOnly = false;
    if (board.length === 0 && !game.streets.some((spec) => spec.board > 0 && spec.hole.length === 0)) {
      const spec = game.streets[street];
      if (spec?.draw === true)
        lines.push(`*** ${['FIRST', 'SECOND', 'THIRD'][street - 1] ?? 'NEXT'} DRAW ***`);
      else if (variant.bringIn) lines.push(`*** ${street + 3}th STREET ***`);
    }
  };
  const allInText = (allIn: boolean): string => (allIn ? ' and is all-in' : '');
  for (const action of hand.actions) {
    switch (action.kind) {
      case 'none':
        break;
      case 'deal-hole':
        newStreet();
        lines.push(`Dealt to ${names[action.player]!} ${cardsInBrackets(action.cards)}`);
        break;
      case 'deal-board': {
        newStreet();
        if (runs === 2 && board.length >= fullBoard) second ??= board.slice(0, shared);
        const run = second ?? board;
        const before = run.length;
        const label = variant.bringIn
          ? variant.game === 'telesina'
            ? 'VELA'
            : 'COMMUNITY CARD'
          : (BOARD_NAMES[Math.min(before === 0 ? 0 : before - 2, 2)] ?? 'BOARD');
        const which = runs === 2 && before >= shared ? (second ? 'SECOND ' : 'FIRST ') : '';
        lines.push(
          `*** ${which}${label} ***${before > 0 ? ` ${cardsInBrackets(run)}` : ''} ${cardsInBrackets(action.cards)}`,
        );
        run.push(...action.cards);
        break;
      }
      case 'fold':
        betting = true;
        lines.push(`${names[action.player]!}: folds`);
        break;
      case 'check-call': {
        betting = true;
        const owed = currentBet - (bets[action.player] ?? 0);
        if (owed <= 0) {
          lines.push(`${names[action.player]!}: checks`);
        } else {
          const paid = put(action.player, owed);
          lines.push(`${names[action.player]!}: calls ${m(paid.amount)}${allInText(paid.allIn)}`);
        }
        break;
      }
      case 'bring-in': {
        betting = true;
        const paid = put(action.player, hand.bringIn ?? 0);
        currentBet = Math.max(currentBet, bets[action.player] ?? 0);
        bringInOnly = true;
        lines.push(`${names[action.player]!}: brings in for ${m(paid.amount)}${allInText(paid.allIn)}`);
        break;
      }
      case 'bet-raise': {
        betting = true;
        const name = names[action.player]!;
        const paid = put(action.player, action.amount - (bets[action.player] ?? 0));
        const to = action.amount;
        if (currentBet === 0) lines.push(`${name}: bets ${m(to)}${allInText(paid.allIn)}`);
        else if (bringInOnly) lines.push(`${name}: completes to ${m(to)}${allInText(paid.allIn)}`);
        else lines.push(`${name}: raises ${m(to - currentBet)} to ${m(to)}${allInText(paid.allIn)}`);
        currentBet = Math.max(currentBet, to);
        bringInOnly = false;
        break;
      }
      case 'discard':
        newStreet();
        lines.push(
          action.cards.length === 0
            ? `${names[action.player]!}: stands pat`
            : `${names[action.player]!}: discards ${action.cards.length} card${action.cards.length === 1 ? '' : 's'} ${cardsInBrackets(action.cards)}`,
        );
        break;
      case 'show-muck':
        if (!lines.includes('*** SHOW DOWN ***')) lines.push('*** SHOW DOWN ***');
        lines.push(
          action.cards.length === 0
            ? `${names[action.player]!}: mucks hand`
            : `${names[action.player]!}: shows ${cardsInBrackets(action.cards)}`,
        );
        break;
    }
  }
  lines.push('*** SUMMARY ***');
  if (second !== null) {
    lines.push('Hand was run twice');
    lines.push(`FIRST Board ${cardsInBrackets(board)}`);
    lines.push(`SECOND Board ${cardsInBrackets(second)}`);
  } else if (board.length > 0) lines.push(`Board ${cardsInBrackets(board)}`);
  hand.startingStacks.forEach((stack, i) => {
    const finish = hand.finishingStacks?.[i];
    const result =
      finish === undefined
        ? ''
        : `, finished with ${m(finish)} (${finish >= stack ? `won ${m(finish - stack)}` : `lost ${m(stack - finish)}`})`;
    lines.push(`Seat ${i + 1}: ${names[i]!} started with ${m(stack)}${result}`);
  });
  return ok(`${lines.join('\n')}\n`);
}

/** Reads a text history written by {@link phhToText} back into a PHH hand. */
export function textToPhh(text: string): Result<PhhHand, PhhErrorCode> {
  const bad = (message: string): Result<PhhHand, PhhErrorCode> => fail(PhhErrorCode.BAD_PHH, message);
  const lines = text.split(/\r?\n/);
  const header = /^Felt Hand #\S+: .* \[([^\]]+)\]$/.exec(lines[0] ?? '');
  if (!header) return bad('not a Felt text hand history (first line)');
  const code = header[1]!;
  const variant = parseVariantCode(code);
  if (variant === null) return fail(PhhErrorCode.UNKNOWN_VARIANT, `unknown variant ${JSON.stringify(code)}`);
  const seats: { name: string; stack: string }[] = [];
  for (const line of lines) {
    const seat = /^Seat (\d+): (.+) \(([\d.]+) in chips\)$/.exec(line);
    if (seat) seats.push({ name: seat[2]!, stack: seat[3]! });
  }
  if (seats.length < 2) return bad('fewer than two seats');
  const first = seats[0]!.stack;
  const scale = first.includes('.') ? first.length - first.indexOf('.') - 1 : 0;
  const amount = (textAmount: string | undefined): number | null => {
    if (textAmount === undefined) return null;
    const pattern = scale === 0 ? /^\d+$/ : new RegExp(`^\\d+\\.\\d{${scale}}$`);
    if (!pattern.test(textAmount)) return null;
    const value = Number(textAmount.replace('.', ''));
    return Number.isSafeInteger(value) ? value : null;
  };
  const names = seats.map((seat) => seat.name);
  const count = names.length;
  const byLength = names.map((name, i) => ({ name, i })).sort((a, b) => b.name.length - a.name.length);
  const who = (line: string, prefix: string, suffix: string): { player: number; rest: string } | null => {
    for (const { name, i } of byLength) {
      const head = `${prefix}${name}${suffix}`;
      if (line.startsWith(head)) return { player: i, rest: line.slice(head.length) };
    }
    return null;
  };
  const cardsOf = (bracket: string): PhhCard[] | null => {
    const parsed = parsePhhCards(bracket.replace(/\s+/g, ''));
    return parsed.ok ? parsed.value : null;
  };
  const startingStacks: number[] = [];
  for (const seat of seats) {
    const stack = amount(seat.stack);
    if (stack === null) return bad(`bad stack ${seat.stack}`);
    startingStacks.push(stack);
  }
  const antes = startingStacks.map(() => 0);
  const blinds = startingStacks.map(() => 0);
  const actions: PhhAction[] = [];
  const finishing: (number | undefined)[] = startingStacks.map(() => undefined);
  const limits: Record<string, string> = {};
  let runs: 1 | 2 = 1;
  for (const [index, line] of lines.entries()) {
    if (index === 0 || line === '' || (line.startsWith('Seat ') && line.endsWith(' in chips)'))) continue;
    const fail = (): Result<PhhHand, PhhErrorCode> =>
      bad(`line ${index + 1} not understood: ${JSON.stringify(line)}`);
    if (line.startsWith('Betting: ')) {
      for (const part of line.slice('Betting: '.length).split(', ')) {
        const match = /^(min bet|small bet|big bet|bring-in|spread limits|ante trimming) (.+)$/.exec(part);
        if (match) limits[match[1]!] = match[2]!;
      }
      continue;
    }
    const summary = /^Seat (\d+): .* started with [\d.]+(?:, finished with ([\d.]+) .*)?$/.exec(line);
    if (summary) {
      const finish = amount(summary[2]);
      if (finish !== null) finishing[Number(summary[1]) - 1] = finish;
      continue;
    }
    if (line === 'Hand was run twice') {
      runs = 2;
      continue;
    }
    if (
      line.startsWith('Table ') ||
      /^(FIRST |SECOND )?Board \[/.test(line) ||
      /^\*\*\* [^[]*\*\*\*$/.test(line)
    )
      continue;
    const boardLine =
      /^\*\*\* (?:FIRST |SECOND )?(FLOP|TURN|RIVER|VELA|COMMUNITY CARD|BOARD) \*\*\*.* \[([^\]]*)\]$/.exec(
        line,
      );
    if (boardLine) {
      const cards = cardsOf(boardLine[2]!);
      if (cards === null) return fail();
      actions.push({ kind: 'deal-board', cards });
      continue;
    }
    const dealt = who(line, 'Dealt to ', ' [');
    if (dealt) {
      const cards = cardsOf(dealt.rest.replace(/\]$/, ''));
      if (cards === null) return fail();
      actions.push({ kind: 'deal-hole', player: dealt.player, cards });
      continue;
    }
    const act = who(line, '', ': ');
    if (!act) return fail();
    const { player } = act;
    const rest = act.rest.replace(/ and is all-in$/, '');
    let match: RegExpExecArray | null;
    if ((match = /^posts the ante ([\d.]+)$/.exec(rest))) {
      const value = amount(match[1]);
      if (value === null) return fail();
      antes[player] = value;
    } else if ((match = /^posts (small blind|big blind|straddle) ([\d.]+)$/.exec(rest))) {
      const value = amount(match[2]);
      if (value === null) return fail();
      blinds[player] = value;
    } else if (rest === 'folds') actions.push({ kind: 'fold', player });
    else if (rest === 'checks' || /^calls [\d.]+$/.test(rest)) actions.push({ kind: 'check-call', player });
    else if (/^brings in for [\d.]+$/.test(rest)) actions.push({ kind: 'bring-in', player });
    else if ((match = /^(?:bets|completes to|raises -?[\d.]+ to) ([\d.]+)$/.exec(rest))) {
      const value = amount(match[1]);
      if (value === null) return fail();
      actions.push({ kind: 'bet-raise', player, amount: value });
    } else if (rest === 'stands pat') actions.push({ kind: 'discard', player, cards: [] });
    else if ((match = /^discards \d+ cards? \[([^\]]*)\]$/.exec(rest))) {
      const cards = cardsOf(match[1]!);
      if (cards === null) return fail();
      actions.push({ kind: 'discard', player, cards });
    } else if (rest === 'mucks hand') actions.push({ kind: 'show-muck', player, cards: [] });
    else if ((match = /^shows \[([^\]]*)\]$/.exec(rest))) {
      const cards = cardsOf(match[1]!);
      if (cards === null) return fail();
      actions.push({ kind: 'show-muck', player, cards });
    } else return fail();
  }
  const limit = (key: string): number | undefined => {
    const value = limits[key];
    return value === undefined ? undefined : (amount(value) ?? undefined);
  };
  const spread = limits['spread limits']?.split('/').map((value) => amount(value));
  if (spread?.some((value) => value === null)) return bad('bad spread limits');
  const minBet = limit('min bet');
  const smallBet = limit('small bet');
  const bigBet = limit('big bet');
  const bringIn = limit('bring-in');
  const trimming = limits['ante trimming'];
  const finishingStacks = finishing.every((value) => value !== undefined) ? finishing : undefined;
  const defaultNames = names.every((name, i) => name === `p${i + 1}`);
  return ok({
    variant: code,
    scale,
    antes: effective(antes, count),
    ...(variant.bringIn ? {} : { blindsOrStraddles: effective(blinds, count) }),
    ...(bringIn === undefined ? {} : { bringIn }),
    ...(smallBet === undefined ? {} : { smallBet }),
    ...(bigBet === undefined ? {} : { bigBet }),
    ...(minBet === undefined ? {} : { minBet }),
    ...(spread === undefined ? {} : { spreadLimits: spread as number[] }),
    ...(trimming === undefined ? {} : { anteTrimmingStatus: trimming === 'on' }),
    startingStacks,
    actions,
    ...(finishingStacks === undefined ? {} : { finishingStacks }),
    extra: { ...(defaultNames ? {} : { players: names }), ...runsFields(runs) },
  });
}
