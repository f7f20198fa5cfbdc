/**
 * After a hand: its recap (winners, hands named, high/low halves) and its history as PHH (the engine's
 * phh module), full and as each participant may see it; the readable text is made from the stored PHH.
 */
import {
  decideShowdown,
  fairFields,
  FAIR_FIELDS,
  FAIR_VERSION,
  formatCard,
  parsePhh,
  PHH_GAME_CODES,
  phhToText,
  runsFields,
  writePhh,
  type Card,
  type HandEvent,
  type MaybeCard,
  type PhhAction,
  type PhhHand,
  type Structure,
} from '@felt/engine';
import type { ResolvedTable } from './config.js';
import type { HandInPlay } from './state.js';
import { HIDDEN_CARD, type AccountId, type CardView, type HandRecap } from './types.js';
import type { FairReveal } from '../storage/types.js';
import { fairHandView, fairRevealView, sees } from './visibility.js';

const STRUCTURE_LETTER: Record<Structure, string> = {
  'fixed-limit': 'F',
  'spread-limit': 'S',
  'pot-limit': 'P',
  'half-pot-limit': 'H',
  'no-limit': 'N',
};

/** The PHH variant code of a table's game, e.g. `NT`, `FO/8`, `FSK`. */
export function phhVariantCode(table: ResolvedTable): string {
  const game = Object.entries(PHH_GAME_CODES).find(([, id]) => id === table.config.game)?.[0] ?? 'T';
  return STRUCTURE_LETTER[table.config.structure] + game;
}

/**
 * Decimals of amounts in histories: both currencies count hundredths (the lobby and the table show
 * play chips as 0.50/1 too), so a history names its stakes as the table does.
 */
const HISTORY_SCALE = 2;

const text = (card: MaybeCard): CardView => (card === null ? HIDDEN_CARD : formatCard(card));

/**
 * The recap of a finished hand with every card (filter with `recapFor`); its fair-dealing secret when
 * it may be revealed at once (`fairRevealAfterMs` 0, the settlement's: visibility.ts `fairRevealDelayMs`).
 */
export function buildRecap(state: HandInPlay, fairRevealAfterMs: number): HandRecap {
  const table = state.settings;
  const snap = state.engine.snapshot();
  const won = snap.players.map(() => 0);
  const showed = snap.players.map(() => false);
  const mucked = snap.players.map(() => false);
  const awards: HandRecap['awards'][number][] = [];
  for (const event of snap.events) {
    if (event.type === 'award') {
      won[event.player] = (won[event.player] ?? 0) + event.amount;
      awards.push({
        pot: event.pot,
        seat: state.order[event.player] ?? -1,
        amount: event.amount,
        share: event.share,
        ...(event.run === undefined ? {} : { run: event.run }),
      });
    } else if (event.type === 'show') showed[event.player] = true;
    else if (event.type === 'muck') mucked[event.player] = true;
  }
  const board = snap.board.filter((c): c is Card => c !== null);
  const secondBoard = snap.secondBoard?.filter((c): c is Card => c !== null) ?? null;
  return {
    handId: state.id,
    number: state.number,
    fair: fairHandView(state.fair),
    // Filtered per viewer by `recapFor`: the hand's players only.
    reveal: fairRevealAfterMs === 0 ? fairRevealView(state.fair) : null,
    game: table.config.game,
    board: snap.board.map(text),
    secondBoard: snap.secondBoard?.map(text) ?? null,
    rake: snap.rake,
    players: snap.players.map((player, p) => {
      const cards = player.cards.filter((c): c is Card => c !== null);
      const atShowdown = !player.folded && (showed[p] === true || mucked[p] === true);
      const { high, low } = atShowdown
        ? namedHands(table.variant.showdown, board, cards)
        : { high: null, low: null };
      const second =
        atShowdown && secondBoard !== null
          ? { second: namedHands(table.variant.showdown, secondBoard, cards) }
          : {};
      return {
        seat: state.order[p] ?? -1,
        account: state.accounts[p]!,
        name: state.names[p] ?? '',
        committed: player.committed,
        won: won[p] ?? 0,
        cards: player.cards.map(text),
        up: [...player.up],
        showed: showed[p] === true,
        mucked: mucked[p] === true,
        folded: player.folded,
        high,
        low,
        ...second,
      };
    }),
    awards,
  };
}

type NamedHands = Pick<HandRecap['players'][number], 'high' | 'low'>;

/** A player's best high (and low) hand on `board`, named; nulls when the evaluator cannot name it (too few cards). */
function namedHands(
  rules: Parameters<typeof decideShowdown>[0]['rules'],
  board: readonly Card[],
  cards: readonly Card[],
): NamedHands {
  try {
    const hand = decideShowdown({ rules, board, holes: [cards] }).hands[0];
    if (hand)
      return {
        high: { name: hand.high.name, cards: hand.high.cards.map(formatCard) },
        low: hand.low ? { name: hand.low.name, cards: hand.low.cards.map(formatCard) } : null,
      };
  } catch {
    // a hand the evaluator cannot name stays unnamed
  }
  return { high: null, low: null };
}

/** Heads-up PHH lists forced bets small blind first while p1 posts the big one. */
const phhOrder = (list: readonly number[]): number[] => (list.length === 2 ? [...list].reverse() : [...list]);

/**
 * The hand as PHH data. `viewer` (an account, or null for a spectator) hides what he may not see
 * (./visibility.ts `sees`); `'all'` keeps every card (the operator's copy).
 */
export function buildPhh(state: HandInPlay, viewer: AccountId | 'all' | null): PhhHand {
  const table = state.settings;
  const { blinds, deadBlinds } = state.plan;
  const hand = state.engine;
  const config = hand.config;
  const stud = table.variant.forced === 'bring-in';
  const shown = (p: number): boolean => viewer === 'all' || sees(state.accounts, p, viewer);
  const hide = (cards: readonly MaybeCard[], p: number, up: readonly boolean[]): MaybeCard[] =>
    cards.map((card, i) => (shown(p) || up[i] === true ? card : null));
  const actions: PhhAction[] = [];
  let secondRun = false;
  for (const event of hand.events as readonly HandEvent[]) {
    switch (event.type) {
      case 'deal-hole':
        actions.push({
          kind: 'deal-hole',
          player: event.player,
          cards: hide(event.cards, event.player, event.up),
        });
        break;
      case 'deal-draw':
        actions.push({ kind: 'deal-hole', player: event.player, cards: hide(event.cards, event.player, []) });
        break;
      case 'deal-board':
        // The second run's cards follow the first's (`_runs = 2`); its first deal says where it starts.
        actions.push(
          event.run === 2 && !secondRun
            ? { kind: 'deal-board', cards: event.cards, comment: 'second run' }
            : { kind: 'deal-board', cards: event.cards },
        );
        secondRun ||= event.run === 2;
        break;
      case 'fold':
        actions.push({ kind: 'fold', player: event.player });
        break;
      case 'check':
      case 'call':
        actions.push({ kind: 'check-call', player: event.player });
        break;
      case 'bring-in':
        actions.push({ kind: 'bring-in', player: event.player });
        break;
      case 'bet-raise':
        actions.push({ kind: 'bet-raise', player: event.player, amount: event.to });
        break;
      case 'discard':
        actions.push({
          kind: 'discard',
          player: event.player,
          cards: hide(event.cards, event.player, []),
          ...(event.timedOut ? { comment: 'timed out: stands pat' } : {}),
        });
        break;
      case 'show':
        actions.push({ kind: 'show-muck', player: event.player, cards: event.cards });
        break;
      case 'muck':
        actions.push({ kind: 'show-muck', player: event.player, cards: [] });
        break;
      case 'timeout':
        actions.push({ kind: 'none', comment: `p${event.player + 1} timed out: ${event.result}` });
        break;
      case 'split':
        actions.push({
          kind: 'none',
          comment: `p${event.player + 1} ${event.accept ? 'accepts' : 'declines'} the split`,
        });
        break;
      default:
        break;
    }
  }
  const n = config.stacks.length;
  const antes = stud ? config.stacks.map(() => table.ante) : config.stacks.map((_, p) => deadBlinds[p] ?? 0);
  const finishing = hand.finishingStacks();
  return {
    variant: phhVariantCode(table),
    scale: HISTORY_SCALE,
    antes: phhOrder(antes),
    anteTrimmingStatus: stud,
    ...(stud ? {} : { blindsOrStraddles: phhOrder(Array.from({ length: n }, (_, p) => blinds[p] ?? 0)) }),
    ...(stud ? { bringIn: table.bringIn } : {}),
    ...(config.structure === 'fixed-limit'
      ? { smallBet: config.smallBet ?? 0, bigBet: config.bigBet ?? 0 }
      : {}),
    ...(config.structure === 'spread-limit'
      ? config.spreadLimits
        ? { spreadLimits: config.spreadLimits, minBet: config.minBet ?? 0 }
        : { smallBet: config.smallBet ?? 0, bigBet: config.bigBet ?? 0, minBet: config.minBet ?? 0 }
      : {}),
    ...(config.structure === 'pot-limit' ||
    config.structure === 'half-pot-limit' ||
    config.structure === 'no-limit'
      ? { minBet: config.minBet ?? 0 }
      : {}),
    startingStacks: [...config.stacks],
    actions,
    ...(finishing ? { finishingStacks: [...finishing] } : {}),
    extra: {
      table: table.config.name,
      hand: state.number,
      seats: state.order.map((seat) => seat + 1),
      seat_count: table.seatCount,
      players: [...state.names],
      ...runsFields(hand.snapshot().runs),
      // The secret and contributions only in the operator's copy; a player's come by the reveal rule.
      ...fairFields({
        version: FAIR_VERSION,
        table: state.fair.table,
        hand: state.fair.hand,
        previous: state.fair.previous,
        commitment: state.fair.commitment,
        seats: state.fair.contributions.map((c) => c.seat),
        contributionHashes: state.fair.hashes,
        contributions: viewer === 'all' ? state.fair.contributions.map((c) => c.bytes) : null,
        secret: viewer === 'all' ? state.fair.secret : null,
      }),
    },
  };
}

/** A player's stored history with the hand's secret and contributions, once storage says they are due. */
export function revealedHistory(phh: string, reveal: FairReveal | null): string {
  if (reveal === null) return phh;
  const hand = parsePhh(phh);
  if (!hand.ok) return phh;
  return writePhh({
    ...hand.value,
    extra: {
      ...hand.value.extra,
      [FAIR_FIELDS.contributions]: [...reveal.contributions],
      [FAIR_FIELDS.secret]: reveal.secret,
    },
  });
}

/** The hand's PHH file for `viewer` (see `buildPhh`): what the room stores of a finished hand. */
export function historyPhh(state: HandInPlay, viewer: AccountId | 'all' | null): string {
  return writePhh(buildPhh(state, viewer));
}

/**
 * The readable text of a stored history, made when it is asked for rather than stored beside the PHH
 * it is made from (it would double what every hand writes). The hand number is the file's `hand`
 * field; amounts show hundredths.
 */
export function historyText(phh: string): string {
  const hand = parsePhh(phh);
  if (!hand.ok) return `(no text: ${hand.error.message})`;
  const number = hand.value.extra.hand;
  const written = phhToText(hand.value, typeof number === 'number' ? number : 1, HISTORY_SCALE);
  return written.ok ? written.value : `(no text: ${written.error.message})`;
}
