/**
 * The replayer's frames: a finished hand's PHH (as the server sends it, with `??` for cards the player
 * may not see) stepped action by action. This is bookkeeping of what the file says — cards dealt, chips
 * bet, the finishing stacks — never a rule: the file records every decision and the server decided the
 * result; the shown hands are named by the engine's evaluator (`@felt/engine/showdown-names`, which
 * loads with this module when a hand is opened, never with the page).
 */
import { formatCard, parsePhh, phhToConfig, UNKNOWN_CARD_TEXT, type PhhCard } from '@felt/engine/browser';
import { shownHands } from '@felt/engine/showdown-names';
import { formatMoney, type Currency } from './format';

export interface ReplayPlayer {
  readonly name: string;
  /** His seat at the table (from 0), where the replayer draws him. */
  readonly seat: number;
  readonly cards: readonly string[];
  /** Money in hundredths, as everywhere in the client. */
  readonly stack: number;
  readonly bet: number;
  readonly folded: boolean;
  /** What he won (the last frame only). */
  readonly won: number;
  /** His hand as the evaluator names it, once he has shown it. */
  readonly hand: string | null;
  /** The last frame: the cards of his hand that make his best hand (highlighted when he won). */
  readonly best: readonly string[];
}

export interface ReplayFrame {
  /** What happened at this step, in words. */
  readonly line: string;
  readonly board: readonly string[];
  readonly players: readonly ReplayPlayer[];
  /** Chips in the middle (not counting the bets in front of the players), in hundredths. */
  readonly pot: number;
  /** The player (index into `players`) whose action this frame shows. */
  readonly actor: number | null;
}

export interface Replay {
  readonly frames: readonly ReplayFrame[];
  /** Seats at the table the hand was played at (the oval's seats). */
  readonly seatCount: number;
}

const cardTexts = (cards: readonly PhhCard[]): string[] =>
  cards.map((card) => (card === null ? UNKNOWN_CARD_TEXT : formatCard(card)));

/** A frame saying why the history cannot be stepped through (the text history is still shown). */
const unreadable = (message: string): Replay => ({
  frames: [
    { line: `This history cannot be replayed: ${message}`, board: [], players: [], pot: 0, actor: null },
  ],
  seatCount: 2,
});

const numbers = (value: unknown): number[] | null =>
  Array.isArray(value) && value.every((item) => typeof item === 'number') ? value : null;

/**
 * Every frame of the hand, the first one after the forced bets, the last one after the pots are paid
 * (the file's finishing stacks). The engine reads the file (amounts scaled to integers, forced bets by
 * position as PHH orders them); amounts are turned into hundredths and worded in `currency`.
 */
export function replayFrames(phh: string, currency: Currency): Replay {
  const parsed = parsePhh(phh);
  if (!parsed.ok) return unreadable(parsed.error.message);
  const hand = parsed.value;
  const read = phhToConfig(hand);
  if (!read.ok) return unreadable(read.error.message);
  const { config } = read.value;
  // Histories count hundredths (scale 2); a file of whole units is scaled up to them.
  const cents = (amount: number): number => Math.round(amount * 10 ** (2 - hand.scale));
  const money = (amount: number): string => formatMoney(amount, currency);
  const names = hand.extra['players'];
  const seats = numbers(hand.extra['seats']);
  const seatCountField = hand.extra['seat_count'];
  const seatCount = Math.max(
    hand.startingStacks.length,
    typeof seatCountField === 'number' ? seatCountField : 0,
    ...(seats ?? []),
  );
  const named = new Map(shownHands(hand).map((shown) => [shown.player, shown]));
  const handName = (index: number): string | null => {
    const shown = named.get(index);
    if (shown === undefined) return null;
    return shown.low === null ? shown.high.name : `${shown.high.name} · Low: ${shown.low.name}`;
  };
  let players: ReplayPlayer[] = hand.startingStacks.map((stack, index) => ({
    name: Array.isArray(names) && typeof names[index] === 'string' ? names[index] : `p${index + 1}`,
    seat: seats?.[index] === undefined ? index : seats[index] - 1,
    cards: [],
    stack: cents(stack),
    bet: 0,
    folded: false,
    won: 0,
    hand: null,
    best: [],
  }));
  let pot = 0;
  let board: string[] = [];
  const frame = (line: string, actor: number | null = null): ReplayFrame => ({
    line,
    board,
    players,
    pot,
    actor,
  });
  // Forced bets: antes to the pot, blinds in front of the players.
  players = players.map((player, index) => {
    const owed = cents(typeof config.antes === 'number' ? config.antes : (config.antes?.[index] ?? 0));
    const ante = Math.min(player.stack, owed);
    const blind = Math.min(player.stack - ante, cents(config.blinds?.[index] ?? 0));
    pot += ante;
    return { ...player, stack: player.stack - ante - blind, bet: blind };
  });
  const frames: ReplayFrame[] = [frame('Forced bets posted')];
  let betting = false;
  const collect = () => {
    // An uncalled part of the largest bet goes back to its owner.
    const bets = players.map((player) => player.bet).sort((a, b) => b - a);
    const top = bets[0] ?? 0;
    const second = bets[1] ?? 0;
    if (top > second) {
      const owner = players.findIndex((player) => player.bet === top);
      players = players.map((player, i) =>
        i === owner ? { ...player, stack: player.stack + top - second, bet: second } : player,
      );
    }
    for (const player of players) pot += player.bet;
    players = players.map((player) => ({ ...player, bet: 0 }));
    betting = false;
  };
  for (const action of hand.actions) {
    if (action.kind === 'none') continue;
    if (action.kind === 'deal-board' || action.kind === 'deal-hole') {
      if (betting) collect();
      const cards = cardTexts(action.cards);
      if (action.kind === 'deal-board') {
        board = [...board, ...cards];
        frames.push(frame(`Board: ${cards.join(' ')}`));
      } else {
        const index = action.player;
        players = players.map((p, i) => (i === index ? { ...p, cards: [...p.cards, ...cards] } : p));
        frames.push(frame(`${players[index]?.name ?? '?'} is dealt ${cards.join(' ')}`, index));
      }
      continue;
    }
    const index = action.player;
    const who = players[index];
    if (who === undefined) continue;
    const maxBet = Math.max(0, ...players.map((p) => p.bet));
    const change = (patch: Partial<ReplayPlayer>) => {
      players = players.map((p, i) => (i === index ? { ...p, ...patch } : p));
    };
    const put = (to: number): number => {
      const add = Math.max(0, Math.min(who.stack, to - who.bet));
      change({ stack: who.stack - add, bet: who.bet + add });
      return add;
    };
    let line: string;
    switch (action.kind) {
      case 'fold':
        change({ folded: true });
        line = `${who.name} folds`;
        break;
      case 'check-call': {
        betting = true;
        const add = put(maxBet);
        line = add === 0 ? `${who.name} checks` : `${who.name} calls ${money(add)}`;
        break;
      }
      case 'bring-in':
        betting = true;
        put(who.bet + cents(config.bringIn ?? 0));
        line = `${who.name} brings in`;
        break;
      case 'bet-raise':
        betting = true;
        put(cents(action.amount));
        line = `${who.name} ${maxBet === 0 ? 'bets' : 'raises to'} ${money(cents(action.amount))}`;
        break;
      case 'discard': {
        const thrown = cardTexts(action.cards);
        let cards = [...who.cards];
        for (const card of thrown) {
          const at = card === UNKNOWN_CARD_TEXT ? cards.lastIndexOf(card) : cards.indexOf(card);
          cards = at >= 0 ? [...cards.slice(0, at), ...cards.slice(at + 1)] : cards.slice(0, -1);
        }
        change({ cards });
        line = thrown.length === 0 ? `${who.name} stands pat` : `${who.name} discards ${thrown.length}`;
        break;
      }
      case 'show-muck': {
        const shown = cardTexts(action.cards);
        const name = handName(index);
        if (shown.length > 0) change({ cards: shown, hand: name });
        line =
          shown.length === 0
            ? `${who.name} mucks`
            : `${who.name} shows ${shown.join(' ')}${name === null ? '' : ` (${name})`}`;
        break;
      }
    }
    frames.push(frame(line, index));
  }
  collect();
  frames.push(paid(frame('The pots are paid'), hand.finishingStacks?.map(cents) ?? null, named, money));
  return { frames, seatCount };
}

/**
 * The last frame: the finishing stacks the file records, what each winner took from the middle, and
 * the cards of each winner's best hand. Without finishing stacks (an unfinished file) it says so.
 */
function paid(
  before: ReplayFrame,
  finishing: readonly number[] | null,
  named: ReadonlyMap<number, ReturnType<typeof shownHands>[number]>,
  money: (amount: number) => string,
): ReplayFrame {
  if (finishing === null) return { ...before, line: 'End of the history (no finishing stacks)' };
  const players = before.players.map((player, index) => {
    const stack = finishing[index] ?? player.stack;
    const won = Math.max(0, stack - player.stack);
    const shown = named.get(index);
    const best = won > 0 && shown !== undefined ? [...shown.high.cards, ...(shown.low?.cards ?? [])] : [];
    return { ...player, stack, won, best: [...new Set(best.map(formatCard))] };
  });
  const paidOut = players.reduce((sum, player) => sum + player.won, 0);
  const winners = players
    .filter((player) => player.won > 0)
    .map(
      (player) =>
        `${player.name} wins ${money(player.won)}${player.hand === null ? '' : ` with ${player.hand}`}`,
    );
  // What the winners did not take is the room's rake.
  const rake = before.pot - paidOut;
  return {
    ...before,
    players,
    pot: 0,
    line: `${winners.length === 0 ? 'The pots are paid' : winners.join(' · ')}${rake > 0 ? ` · rake ${money(rake)}` : ''}`,
    actor: null,
  };
}
