import { findDuplicate, formatCard, parseCards, rankOf, type Card } from '../cards.js';
import { deckContains } from '../deck.js';
import { ErrorCode, fail, ok, type Result } from '../result.js';
import {
  bestHandOf,
  bestOmahaHandOf,
  bestOmahaValueOf,
  bestValueOfParts,
  type HandValue,
} from './combine.js';
import { isGameId, SHOWDOWN_RULES, type ShowdownRules } from './games.js';
import { NO_HAND, type Ranking, type RankingId } from './ranking.js';
import { rankingOf } from './rankings.js';

export interface ShowdownInput {
  readonly rules: ShowdownRules;
  readonly board: readonly Card[];
  readonly holes: readonly (readonly Card[])[];
}

/** Who wins: indexes into the players, in seat order. `lowWinners` is null in games without a low half. */
export interface ShowdownWinners {
  readonly winners: number[];
  readonly lowWinners: number[] | null;
}

export interface NamedHand extends HandValue {
  readonly name: string;
}

export interface ShowdownResult extends ShowdownWinners {
  /** Each player's best hand; `low` is null where he has no qualifying low or the game has none. */
  readonly hands: readonly { readonly high: NamedHand; readonly low: NamedHand | null }[];
}

/** Checks a showdown given as a game id and card texts: known game, real cards of its deck, no card twice, counts that fit. */
export function parseShowdown(
  game: string,
  board: readonly string[],
  players: readonly (readonly string[])[],
): Result<ShowdownInput> {
  if (!isGameId(game)) return fail(ErrorCode.UNKNOWN_GAME, `unknown game ${JSON.stringify(game)}`);
  const rules = SHOWDOWN_RULES[game];
  const parsedBoard = parseCards(board);
  if (!parsedBoard.ok) return parsedBoard;
  const holes: Card[][] = [];
  for (const player of players) {
    const parsed = parseCards(player);
    if (!parsed.ok) return parsed;
    holes.push(parsed.value);
  }
  return validateShowdown({ rules, board: parsedBoard.value, holes });
}

export function validateShowdown(input: ShowdownInput): Result<ShowdownInput> {
  const { rules, board, holes } = input;
  const [minBoard, maxBoard] = rules.board;
  const [minHole, maxHole] = rules.hole;
  if (holes.length < 1) return fail(ErrorCode.BAD_CARD_COUNT, 'a showdown needs at least one player');
  if (board.length < minBoard || board.length > maxBoard) {
    return fail(
      ErrorCode.BAD_CARD_COUNT,
      `${rules.game} needs ${span(minBoard, maxBoard)} board cards, got ${board.length}`,
    );
  }
  for (const [index, hole] of holes.entries()) {
    const total = hole.length + board.length;
    if (hole.length < minHole || hole.length > maxHole || (rules.combine === 'any' && total > 7)) {
      return fail(
        ErrorCode.BAD_CARD_COUNT,
        `player ${index} in ${rules.game} needs ${span(minHole, maxHole)} cards${rules.combine === 'any' && maxBoard > 0 ? ', at most 7 with the board' : ''}, got ${hole.length}`,
      );
    }
  }
  for (const card of [board, ...holes].flat()) {
    if (!deckContains(rules.deck, card)) {
      return fail(ErrorCode.CARD_NOT_IN_DECK, `${formatCard(card)} is not in the deck of ${rules.game}`);
    }
  }
  const duplicate = findDuplicate(board, ...holes);
  if (duplicate !== null) return fail(ErrorCode.DUPLICATE_CARD, `${formatCard(duplicate)} appears twice`);
  return ok(input);
}

const span = (min: number, max: number): string => (min === max ? `${min}` : `${min} to ${max}`);

/** The indexes of the players with the best hand under one ranking; none when no hand qualifies. */
function bestPlayers(ranking: Ranking, input: ShowdownInput): number[] {
  const { rules, board, holes } = input;
  const headsUp = holes.length === 2 ? ranking.headsUpValue : undefined;
  let best = NO_HAND + 1;
  let winners: number[] = [];
  for (let index = 0; index < holes.length; index++) {
    const hole = holes[index]!;
    let value =
      rules.combine === 'omaha'
        ? bestOmahaValueOf(ranking, hole, board)
        : bestValueOfParts(ranking, hole, board);
    if (headsUp) value = headsUp(value);
    if (value > best) {
      best = value;
      winners = [index];
    } else if (value === best) winners.push(index);
  }
  return winners;
}

/** Decides a checked showdown: the winners of the pot (or of its high half) and of the low half. */
export function showdownWinners(input: ShowdownInput): ShowdownWinners {
  const { rules } = input;
  return {
    winners: bestPlayers(rankingOf(rules.high), input),
    lowWinners: rules.low === null ? null : bestPlayers(rankingOf(rules.low), input),
  };
}

const ACE_LOW_RANKINGS: readonly RankingId[] = ['low8', 'lowA5', 'badugi'];

/** Cards as players lay them out: the biggest groups first, then the higher ranks (the ace low in the lows). */
function inShowingOrder(cards: readonly Card[], ranking: Ranking): Card[] {
  const aceLow = ACE_LOW_RANKINGS.includes(ranking.id);
  const weight = (card: Card): number => {
    const rank = rankOf(card);
    const size = cards.filter((other) => rankOf(other) === rank).length;
    return size * 16 + (aceLow && rank === 12 ? -1 : rank);
  };
  return [...cards].sort((a, b) => weight(b) - weight(a) || b - a);
}

/** Decides a checked showdown and names every player's best hands. */
export function decideShowdown(input: ShowdownInput): ShowdownResult {
  const { rules, board } = input;
  const named = (ranking: Ranking, hole: readonly Card[]): NamedHand => {
    const hand =
      rules.combine === 'omaha'
        ? bestOmahaHandOf(ranking, hole, board)
        : bestHandOf(ranking, [...hole, ...board]);
    return {
      value: hand.value,
      cards: inShowingOrder(hand.cards, ranking),
      name: ranking.describe(hand.value, hand.cards),
    };
  };
  const hands = input.holes.map((hole) => {
    const low = rules.low === null ? null : named(rankingOf(rules.low), hole);
    return { high: named(rankingOf(rules.high), hole), low: low && low.value !== NO_HAND ? low : null };
  });
  return { ...showdownWinners(input), hands };
}
