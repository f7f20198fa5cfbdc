import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deckCards } from '../src/deck.js';
import { telesinaRanking } from '../src/eval/telesina.js';
import { cards, distinctCards, forEachFiveCardHand } from './helpers.js';
import { compareTuples, highClass, type HighOptions, type Tuple } from './reference.js';

const telesina = telesinaRanking;
const value = (text: string): number => telesina.evaluate(cards(text));
const beats = (a: string, b: string): boolean => value(a) > value(b);
const name = (text: string): string => telesina.describe(value(text), cards(text));
const headsUp = (text: string): number => telesina.headsUpValue!(value(text));
const DECK = deckCards('piquet32');

/** 7 to ace: T-9-8-7-A is the lowest straight, a flush beats a full house. */
const PIQUET: HighOptions = { wheel: [5, 6, 7, 8], flushBeatsFullHouse: true };
const ORDER = [
  'high-card',
  'pair',
  'two-pair',
  'three-of-a-kind',
  'straight',
  'full-house',
  'flush',
  'four-of-a-kind',
  'straight-flush',
];
/** Hearts > diamonds > clubs > spades, by the card's suit letter. */
const strength = (card: number): number =>
  ({ c: 1, d: 2, h: 3, s: 0 })['cdhs'.charAt(card % 4) as 'c' | 'd' | 'h' | 's'];
/** The suit strengths of the cards of a rank, strongest first. */
const suitsOf = (hand: number[], rank: number): number[] =>
  hand
    .filter((card) => Math.floor(card / 4) === rank)
    .map(strength)
    .sort((x, y) => y - x);

/** The reference: the class and ranks, then the suits exactly as the brief words the Telesina rules. */
function telesinaTuple(hand: number[]): Tuple {
  const { name, ties } = highClass(hand, PIQUET);
  const position = ORDER.indexOf(name);
  switch (name) {
    case 'straight-flush':
    case 'straight':
      return [position, ties[0]!, ...suitsOf(hand, ties[0]!)]; // top card, then its suit
    case 'flush':
      return [position, strength(hand[0]!), ...ties]; // by suit alone, then ranks
    case 'two-pair':
      return [position, ...ties, ...suitsOf(hand, ties[0]!)]; // then the suits of the higher pair
    case 'pair':
      return [position, ...ties, ...ties.slice(1).flatMap((kicker) => suitsOf(hand, kicker))];
    case 'high-card':
      return [position, ...ties, ...ties.flatMap((rank) => suitsOf(hand, rank))];
    default:
      return [position, ...ties]; // quads, full houses, trips: by rank
  }
}

describe('Telesina: the order of the classes (RULES.md §10, the seed)', () => {
  const ladder: [string, string][] = [
    ['royal-flush', 'AhKhQhJhTh'],
    ['straight-flush', 'KsQsJsTs9s'],
    ['four-of-a-kind', '7c7d7h7s8c'],
    ['flush', 'Ah9h8h7hJh'],
    ['full-house', 'AcAdAhKsKc'],
    ['straight', 'Td9c8h7sAs'],
    ['three-of-a-kind', 'AcAdAhKsQc'],
    ['two-pair', 'AcAdKhKsQc'],
    ['pair', 'AcAdKhQsJc'],
    ['high-card', 'AcKdQhJs9c'],
  ];
  it('straight flush, four of a kind, flush, full house, straight, three of a kind, two pair, pair, high card', () => {
    for (const [expected, hand] of ladder) expect(telesina.className(value(hand))).toBe(expected);
    for (let i = 1; i < ladder.length; i++) expect(beats(ladder[i - 1]![1], ladder[i]![1])).toBe(true);
  });
  it('a flush beats a full house', () => {
    expect(beats('7h8h9hJhAh', 'AcAdAhKsKc')).toBe(true);
  });
  it('the ace plays high: A-K-Q-J-T is the highest straight', () => {
    expect(name('AsKdQhJsTc')).toBe('Straight, ace high');
  });
  it('T-9-8-7-A is the lowest straight', () => {
    expect(name('Td9c8h7sAs')).toBe('Straight, ten high');
    expect(beats('Jd Tc9h8s7s', 'Td9c8h7sAh')).toBe(true);
    expect(beats('Td9c8h7sAs', 'AhKdQhJs9c')).toBe(true);
  });
});

describe('Telesina: suits break ties (hearts > diamonds > clubs > spades)', () => {
  it('equal straight flushes: the suit decides', () => {
    expect(beats('KhQhJhTh9h', 'KdQdJdTd9d')).toBe(true);
  });
  it('a higher straight flush beats a better suit', () => {
    expect(beats('KsQsJsTs9s', 'QhJhTh9h8h')).toBe(true);
  });
  it('equal straights: the suit of the top card decides', () => {
    expect(beats('Kh QcJcTc9c', 'Kd QhJhTh9h')).toBe(true);
    expect(beats('Kc QsJsTs9s', 'Ks QhJhTh9h')).toBe(true);
  });
  it('flushes: by suit alone, whatever the ranks', () => {
    expect(beats('7h8h9hJhQh', 'AdKdQdJd9d')).toBe(true);
    expect(beats('7c8c9cJcQc', 'AsKsQsJs9s')).toBe(true);
    expect(name('7h8h9hJhQh')).toBe('Flush of hearts, queen high');
  });
  it('quads, full houses and trips by rank', () => {
    expect(beats('8c8d8h8s7c', '7d7h7s7cAh')).toBe(true);
    expect(beats('KsKcKd7s7c', 'QhQdQcAhAd')).toBe(true);
    expect(beats('9s9c9dTs7c', '8h8d8cAhKd')).toBe(true);
  });
  it('two pair where the Vela is the deciding kicker: the highest suit in the higher pair wins', () => {
    // The Vela (Ad) is both players' kicker; K♥ is the best card of the higher pairs.
    expect(beats('KhKs9c9d Ad', 'KdKc9h9s Ad')).toBe(true);
    expect(value('KhKs9c9d Ad')).toBe(value('KhKs9h9s Ad'));
  });
  it('two pair by pairs, then the kicker rank, before any suit', () => {
    expect(beats('KsKc9s9c Ac', 'KhKd9h9d Qh')).toBe(true);
    expect(beats('KsKcTsTc 7c', 'KhKd9h9d Ah')).toBe(true);
  });
  it('one pair with equal kickers: the suit of the highest kicker decides, then the next kickers', () => {
    expect(beats('9c9d AhKsQs', '9h9s AdKhQh')).toBe(true);
    expect(beats('9c9d AhKsQs', '9h9s AhKdQh')).toBe(false);
    expect(beats('9c9d AhKdQs', '9h9s AhKcQh')).toBe(true);
  });
  it('one pair: kicker ranks come before suits', () => {
    expect(beats('9s9c AsKsJs', '9h9d AhKhTh')).toBe(true);
  });
  it('high card: Ah Kc … beats Ad Kc … (the seed)', () => {
    expect(beats('AhKcJd9s7c', 'AdKcJh9c7s')).toBe(true);
  });
  it('high card: ranks first, then suits from the highest card down', () => {
    expect(beats('AsKsJs9s8c', 'AhKhJh9h7d')).toBe(true);
    expect(beats('AhKdJs9s7c', 'AhKcJh9h7d')).toBe(true);
  });
  it('names hands as players say them', () => {
    expect(name('AhKhQhJhTh')).toBe('Royal flush of hearts');
    expect(name('Ts9s8s7sAs')).toBe('Straight flush of spades, ten high');
    expect(name('JcJd9h9s7c')).toBe('Two pair, jacks and nines');
    expect(name('KhKdKs8c8d')).toBe('Full house, kings over eights');
  });
});

describe('Telesina heads-up: the lowest straight flush beats the royal flush', () => {
  it('hearts A-K-Q-J-T loses to spades T-9-8-7-A with two players (the seed)', () => {
    expect(headsUp('Ts9s8s7sAs') > headsUp('AhKhQhJhTh')).toBe(true);
    expect(beats('AhKhQhJhTh', 'Ts9s8s7sAs')).toBe(true);
  });
  it('any T-9-8-7-A straight flush beats any royal flush, and so every straight flush', () => {
    for (const low of ['Th9h8h7hAh', 'Td9d8d7dAd', 'Tc9c8c7cAc', 'Ts9s8s7sAs']) {
      for (const royal of ['AhKhQhJhTh', 'AdKdQdJdTd', 'AcKcQcJcTc', 'AsKsQsJsTs', 'KhQhJhTh9h']) {
        expect(headsUp(low) > headsUp(royal)).toBe(true);
      }
    }
  });
  it('among themselves the lowest straight flushes keep their suit order', () => {
    expect(headsUp('Th9h8h7hAh') > headsUp('Td9d8d7dAd')).toBe(true);
    expect(headsUp('Tc9c8c7cAc') > headsUp('Ts9s8s7sAs')).toBe(true);
  });
  it('moves only the four T-9-8-7-A straight flushes, and a moved value keeps its name and class', () => {
    let moved = 0;
    forEachFiveCardHand(DECK, (hand) => {
      const v = telesina.evaluate(hand);
      if (telesina.headsUpValue!(v) !== v) moved++;
    });
    expect(moved).toBe(4);
    expect(telesina.describe(headsUp('Ts9s8s7sAs'), cards('Ts9s8s7sAs'))).toBe(
      'Straight flush of spades, ten high',
    );
    expect(telesina.className(headsUp('Ts9s8s7sAs'))).toBe('straight-flush');
  });
});

describe('Telesina: the census of all 201,376 hands of the 32-card deck', () => {
  it('falls into the classes as the reference classifier counts them', () => {
    const counts = new Map<string, number>();
    const reference = new Map<string, number>();
    const add = (map: Map<string, number>, key: string): void => void map.set(key, (map.get(key) ?? 0) + 1);
    forEachFiveCardHand(DECK, (hand) => {
      add(counts, telesina.className(telesina.evaluate(hand)));
      const { name, ties } = highClass(hand, PIQUET);
      add(reference, name === 'straight-flush' && ties[0] === 12 ? 'royal-flush' : name);
    });
    expect(counts).toEqual(reference);
    expect(Object.fromEntries(counts)).toEqual({
      'royal-flush': 4,
      'straight-flush': 16,
      'four-of-a-kind': 224,
      flush: 204,
      'full-house': 1344,
      straight: 5100,
      'three-of-a-kind': 10752,
      'two-pair': 24192,
      pair: 107520,
      'high-card': 52020,
    });
  });
});

describe('Telesina: the ranking agrees with the reference', () => {
  // Hands from only the four lowest ranks and the ace, so that classes and suit tie-breaks come up often.
  const crowded = distinctCards(
    5,
    DECK.filter((card) => card < 36 || card >= 48),
  );
  it('orders random pairs of hands as the reference does', () => {
    fc.assert(
      fc.property(
        fc.oneof(distinctCards(5, DECK), crowded),
        fc.oneof(distinctCards(5, DECK), crowded),
        (a, b) => {
          const fast = Math.sign(telesina.evaluate(a) - telesina.evaluate(b));
          expect(fast).toBe(compareTuples(telesinaTuple(a), telesinaTuple(b)));
        },
      ),
      { numRuns: 20000 },
    );
  });
});
