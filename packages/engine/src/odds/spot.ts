import { findDuplicate, formatCard, parseCards, parseMaybeCard, type Card } from '../cards.js';
import { deckCards, deckContains } from '../deck.js';
import { ErrorCode, fail, ok, type Result } from '../result.js';
import { isGameId, SHOWDOWN_RULES, type GameId, type ShowdownRules } from '../eval/games.js';
import type { Ranking } from '../eval/ranking.js';
import { rankingOf } from '../eval/rankings.js';

/**
 * How the cards still to come reach the players, per game:
 * - `board`: community cards (hold'em, short deck, the Omahas): every hand is complete, the board is dealt up to five;
 * - `stud`: each player's own cards, dealt one at a time (the studs, razz, Sökö, Americana, Telesina and its Vela);
 * - `draw`: five (badugi: four) cards each, complete from the start; one draw can be asked for with a discard.
 */
export type DealKind = 'board' | 'stud' | 'draw';

export const DEAL_KIND: Readonly<Record<GameId, DealKind>> = {
  holdem: 'board',
  shortdeck: 'board',
  omaha: 'board',
  omaha5: 'board',
  'omaha-hilo': 'board',
  'omaha5-hilo': 'board',
  stud: 'stud',
  'stud-hilo': 'stud',
  razz: 'stud',
  soko: 'stud',
  americana: 'stud',
  telesina: 'stud',
  draw5: 'draw',
  'triple-draw-27': 'draw',
  'single-draw-27': 'draw',
  badugi: 'draw',
  draw32: 'draw',
};

/** One player's hand as given: the cards known, and how many more of his cards come from the stub. */
export interface HandSpec {
  /** The hand as written on the command line (`AsKs`, `??`, `????Kh7d`). */
  readonly text: string;
  /** His known cards, in the order given. */
  readonly known: readonly Card[];
  /** `??` tokens: cards he holds (or was dealt face down) that nobody at the calculator can see. */
  readonly hidden: number;
  /** Cards he holds at the showdown, board not counted: known + hidden + those still to be dealt. */
  readonly size: number;
}

/** A checked spot: every count fits the game, every card is in its deck, no card twice. */
export interface OddsSpot {
  readonly rules: ShowdownRules;
  readonly kind: DealKind;
  readonly high: Ranking;
  readonly low: Ranking | null;
  readonly hands: readonly HandSpec[];
  /** The board (community cards, the Vela, a stud community card) so far. */
  readonly board: readonly Card[];
  /** The board at the showdown: 5 in the board games, 1 in Telesina (the Vela), else as given. */
  readonly boardSize: number;
  /** Cards out of play: folded, burned, seen. In a draw, the first player's discards are added here. */
  readonly dead: readonly Card[];
  /** Draw games: the first player's discards (already removed from his hand and counted dead). */
  readonly discard: readonly Card[];
  /** Every card that can still come: the deck less known, board and dead cards. */
  readonly stub: readonly Card[];
}

export interface OddsRequest {
  readonly game: string;
  /** Each hand's cards without spaces; `??` is an unknown card, and a hand of only `??` an unknown hand. */
  readonly hands: readonly string[];
  readonly board?: string;
  readonly dead?: string;
  /** Draw games: cards of the first hand that he throws away and replaces from the stub. */
  readonly discard?: string;
}

const UNKNOWN = '??';

function splitTokens(text: string): Result<string[]> {
  if (text.length === 0 || text.length % 2 !== 0 || /\s/.test(text)) {
    return fail(
      ErrorCode.BAD_CARD,
      `not a hand: ${JSON.stringify(text)} (cards without spaces, such as AsKs)`,
    );
  }
  const tokens: string[] = [];
  for (let i = 0; i < text.length; i += 2) tokens.push(text.slice(i, i + 2));
  return ok(tokens);
}

function parseCardList(text: string | undefined, what: string): Result<Card[]> {
  if (text === undefined || text === '') return ok([]);
  if (/\s/.test(text) || text.length % 2 !== 0) {
    return fail(ErrorCode.BAD_CARD, `not a list of cards for ${what}: ${JSON.stringify(text)}`);
  }
  if (text.includes(UNKNOWN)) return fail(ErrorCode.BAD_CARD, `${what} must be known cards, not ??`);
  return parseCards(text);
}

/** The board sizes a game accepts so far, and the size it has at the showdown. */
function boardShape(
  rules: ShowdownRules,
  kind: DealKind,
  given: number,
): { allowed: number[]; size: number } {
  if (kind === 'board') return { allowed: [0, 3, 4, 5], size: 5 };
  if (rules.game === 'telesina') return { allowed: [0, 1], size: 1 };
  if (rules.board[1] > 0) return { allowed: [0, 1], size: given };
  return { allowed: [0], size: 0 };
}

function rankingsOf(rules: ShowdownRules): Result<{ high: Ranking; low: Ranking | null }> {
  try {
    return ok({ high: rankingOf(rules.high), low: rules.low === null ? null : rankingOf(rules.low) });
  } catch {
    return fail(ErrorCode.BAD_REQUEST, `the ranking of ${rules.game} is not available yet`);
  }
}

/** Checks an odds request: known game, cards of its deck, counts that fit, no card twice, enough cards left. */
export function parseOddsRequest(request: OddsRequest): Result<OddsSpot> {
  const { game } = request;
  if (!isGameId(game)) return fail(ErrorCode.UNKNOWN_GAME, `unknown game ${JSON.stringify(game)}`);
  const rules = SHOWDOWN_RULES[game];
  const kind = DEAL_KIND[game];
  const rankings = rankingsOf(rules);
  if (!rankings.ok) return rankings;

  const board = parseCardList(request.board, '--board');
  if (!board.ok) return board;
  const dead = parseCardList(request.dead, '--dead');
  if (!dead.ok) return dead;
  const discard = parseCardList(request.discard, '--discard');
  if (!discard.ok) return discard;

  const shape = boardShape(rules, kind, board.value.length);
  if (!shape.allowed.includes(board.value.length)) {
    return fail(
      ErrorCode.BAD_CARD_COUNT,
      `${game} takes a board of ${shape.allowed.join(', ')} cards, got ${board.value.length}`,
    );
  }
  if (request.hands.length < 2) {
    return fail(ErrorCode.BAD_REQUEST, `odds need at least two hands, got ${request.hands.length}`);
  }

  // Cards a player holds at the showdown, the board not counted.
  const size =
    kind === 'stud' && rules.hole[0] !== rules.hole[1] ? rules.hole[1] - shape.size : rules.hole[1];
  const hands: HandSpec[] = [];
  for (const [index, text] of request.hands.entries()) {
    const hand = parseHand(text, index, size, kind, game);
    if (!hand.ok) return hand;
    hands.push(hand.value);
  }

  let dealtDiscard: Card[] = [];
  if (discard.value.length > 0) {
    if (kind !== 'draw') return fail(ErrorCode.BAD_REQUEST, `--discard is for the draw games, not ${game}`);
    const first = hands[0]!;
    if (first.hidden > 0) return fail(ErrorCode.BAD_REQUEST, '--discard needs the first hand fully known');
    for (const card of discard.value) {
      if (!first.known.includes(card)) {
        return fail(ErrorCode.BAD_REQUEST, `--discard: ${formatCard(card)} is not in the first hand`);
      }
    }
    dealtDiscard = discard.value;
  }

  const all = [board.value, dead.value, ...hands.map((hand) => hand.known)];
  for (const card of all.flat()) {
    if (!deckContains(rules.deck, card)) {
      return fail(ErrorCode.CARD_NOT_IN_DECK, `${formatCard(card)} is not in the deck of ${game}`);
    }
  }
  const duplicate = findDuplicate(dealtDiscard) ?? findDuplicate(...all);
  if (duplicate !== null) return fail(ErrorCode.DUPLICATE_CARD, `${formatCard(duplicate)} appears twice`);

  const out = new Set(all.flat());
  const spot: OddsSpot = {
    rules,
    kind,
    high: rankings.value.high,
    low: rankings.value.low,
    hands,
    board: board.value,
    boardSize: shape.size,
    dead: dead.value,
    discard: [],
    stub: deckCards(rules.deck).filter((card) => !out.has(card)),
  };
  const needed = cardsToCome(spot);
  if (needed > spot.stub.length) {
    return fail(
      ErrorCode.BAD_CARD_COUNT,
      `${game}: the hands and board need ${needed} more cards, only ${spot.stub.length} are left`,
    );
  }
  return ok(dealtDiscard.length > 0 ? withDiscard(spot, dealtDiscard) : spot);
}

/** How many cards the run-out deals: every hand's missing cards and the board's. */
export function cardsToCome(spot: OddsSpot): number {
  const hands = spot.hands.reduce((sum, hand) => sum + hand.size - hand.known.length, 0);
  return hands + spot.boardSize - spot.board.length;
}

/**
 * The spot after the first player throws `discard` (cards of his, fully known hand) and draws as many:
 * the discards are dead — a player never gets his own discards back — and the draw comes from the stub.
 */
export function withDiscard(spot: OddsSpot, discard: readonly Card[]): OddsSpot {
  const [first, ...rest] = spot.hands;
  if (!first) return spot;
  const kept = first.known.filter((card) => !discard.includes(card));
  return {
    ...spot,
    hands: [{ ...first, known: kept }, ...rest],
    dead: [...spot.dead, ...discard],
    discard: [...discard],
  };
}

function parseHand(
  text: string,
  index: number,
  size: number,
  kind: DealKind,
  game: GameId,
): Result<HandSpec> {
  const tokens = splitTokens(text);
  if (!tokens.ok) return tokens;
  const known: Card[] = [];
  let hidden = 0;
  for (const token of tokens.value) {
    const card = parseMaybeCard(token);
    if (!card.ok) return card;
    if (card.value === null) hidden++;
    else known.push(card.value);
  }
  const count = tokens.value.length;
  // A hand of only `??` is an unknown hand: all its cards come from the stub.
  if (known.length === 0 && (count === 1 || count === size)) return ok({ text, known, hidden: size, size });
  const fits = kind === 'stud' ? count >= 1 && count <= size : count === size;
  if (!fits) {
    return fail(
      ErrorCode.BAD_CARD_COUNT,
      `hand ${index + 1} (${text}) in ${game} needs ${kind === 'stud' ? `1 to ${size}` : size} cards, got ${count}`,
    );
  }
  return ok({ text, known, hidden, size });
}
