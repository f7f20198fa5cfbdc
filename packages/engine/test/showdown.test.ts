import { describe, expect, it } from 'vitest';
import { GAME_IDS, SHOWDOWN_RULES } from '../src/eval/games.js';
import { decideShowdown, parseShowdown, showdownWinners, type ShowdownResult } from '../src/eval/showdown.js';
import { ErrorCode } from '../src/result.js';

const split = (text: string): string[] => text.match(/../g) ?? [];

function decide(game: string, board: string, ...players: string[]): ShowdownResult {
  const input = parseShowdown(game, split(board), players.map(split));
  if (!input.ok) throw new Error(input.error.message);
  return decideShowdown(input.value);
}

function refusal(game: string, board: string, ...players: string[]): string | null {
  const input = parseShowdown(game, split(board), players.map(split));
  return input.ok ? null : input.error.code;
}

describe('showdown: who wins', () => {
  it('Omaha hi/lo: the high half and the low half are decided apart (the issue’s example)', () => {
    const result = decide('omaha-hilo', '3c4d5hKcKd', 'Ah2hKh5c', 'As2s9c9d');
    expect(result.winners).toEqual([0]);
    expect(result.lowWinners).toEqual([0, 1]);
    expect(result.hands[0]!.high.name).toBe('Full house, kings over fives');
    expect(result.hands[1]!.low!.name).toBe('5-4-3-2-A low');
  });
  it('hi/lo without a qualifying low: nobody wins the low half', () => {
    const result = decide('omaha-hilo', '9cTdJhKcKd', 'Ah2hKh5c', 'As2s9h9d');
    expect(result.lowWinners).toEqual([]);
    expect(result.hands.every((hand) => hand.low === null)).toBe(true);
  });
  it('games without a low half report no low winners', () => {
    expect(decide('holdem', 'AsKsQsJs2d', 'Ts3c', 'AhAd').lowWinners).toBeNull();
  });
  it('equal hands split the pot: playing the board', () => {
    expect(decide('holdem', 'AsKsQsJsTs', '2c3c', '2d3d').winners).toEqual([0, 1]);
  });
  it('stud players use all their own cards and a community seventh card', () => {
    const result = decide('stud', 'Ah', 'AsAdKcKd2c3c', 'QsQdQc2d3d4h');
    expect(result.hands[0]!.high.name).toBe('Full house, aces over kings');
    expect(result.winners).toEqual([0]);
  });
  it('stud hi/lo: the best five of seven for each half', () => {
    const result = decide('stud-hilo', '', 'As2s3s4s5sKdKc', 'AhAcKh7c8c9dTd');
    expect(result.winners).toEqual([0]);
    expect(result.lowWinners).toEqual([0]);
  });
  it('razz: the lowest A-5 hand wins', () => {
    expect(decide('razz', '', 'As2s3s4s6sKdKc', 'Ah2h3h4h5hQcQd').winners).toEqual([1]);
  });
  it('2-7: the lowest hand wins; the ace is high', () => {
    expect(decide('triple-draw-27', '', '7s5d4c3h2s', 'As2d3c4h5s').winners).toEqual([0]);
    expect(decide('single-draw-27', '', '8s5d4c3h2s', '7h6h5h4h2h').winners).toEqual([0]);
  });
  it('every game has a rule set whose ranking is registered', () => {
    for (const game of GAME_IDS) expect(SHOWDOWN_RULES[game].game).toBe(game);
  });
  it('the fast winners agree with the named decision', () => {
    const input = parseShowdown('omaha5-hilo', split('3c4d5hKcKd'), [
      split('Ah2hKh5c6c'),
      split('As2s9c9d8d'),
    ]);
    if (!input.ok) throw new Error(input.error.message);
    const { winners, lowWinners } = decideShowdown(input.value);
    expect(showdownWinners(input.value)).toEqual({ winners, lowWinners });
  });
});

describe('showdown: bad input is refused with a typed error', () => {
  it('an unknown game is UNKNOWN_GAME', () => {
    expect(refusal('canasta', '', 'AsKs')).toBe(ErrorCode.UNKNOWN_GAME);
  });
  it('a card that is not a card is BAD_CARD (also ?? at a showdown)', () => {
    expect(refusal('holdem', 'AsKsQsJs2d', 'Ts1c', 'AhAd')).toBe(ErrorCode.BAD_CARD);
    expect(refusal('holdem', 'AsKsQsJs2d', '????', 'AhAd')).toBe(ErrorCode.BAD_CARD);
  });
  it('a card dealt twice is DUPLICATE_CARD', () => {
    expect(refusal('holdem', 'AsKsQsJs2d', 'As3c', 'AhAd')).toBe(ErrorCode.DUPLICATE_CARD);
  });
  it('the wrong number of cards is BAD_CARD_COUNT', () => {
    expect(refusal('holdem', 'AsKsQsJs2d', 'Ts3c4c', 'AhAd')).toBe(ErrorCode.BAD_CARD_COUNT);
    expect(refusal('holdem', 'AsKsQsJs2d3d', 'Ts3c', 'AhAd')).toBe(ErrorCode.BAD_CARD_COUNT);
    expect(refusal('omaha', 'AsKsQsJs2d', 'Ts3c', 'AhAd')).toBe(ErrorCode.BAD_CARD_COUNT);
    expect(refusal('stud', 'Ah', 'AsAdKcKd2c3c4c', 'QsQdQc2d3d4h')).toBe(ErrorCode.BAD_CARD_COUNT);
    expect(refusal('holdem', 'AsKsQsJs2d')).toBe(ErrorCode.BAD_CARD_COUNT);
  });
  it('a card outside the game’s deck is CARD_NOT_IN_DECK', () => {
    expect(refusal('americana', '', '2cAsKsQsJs', 'AhKhQhJh9h')).toBe(ErrorCode.CARD_NOT_IN_DECK);
    expect(refusal('shortdeck', 'AsKsQsJs9d', '5c6c', 'AhAd')).toBe(ErrorCode.CARD_NOT_IN_DECK);
  });
});
