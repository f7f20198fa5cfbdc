import { setImmediate } from 'node:timers/promises';
import { Omaha, TexasHoldem } from 'poker-odds-calc';
import { computeOdds, parseOddsRequest, type OddsRequest } from '@felt/engine';
import { median } from './measure.js';
import type { BenchGroup, BenchRow } from './registry.js';

/** The exact-equity peer, in its `exhaustive()` mode. */
const PEER = 'poker-odds-calc';
const PEER_GAMES = { TexasHoldem, Omaha } as const;

interface OddsSpotRow {
  readonly name: string;
  readonly request: OddsRequest;
  /** The peer's class for the game. */
  readonly peerGame: 'TexasHoldem' | 'Omaha';
  /** Felt's timed runs; the figure is their median. */
  readonly runs: number;
}

const split = (text: string): string[] => text.match(/../g) ?? [];

/** The spots of the `odds` rows: exact equity, the same spot for Felt and the peer. */
export const ODDS_SPOTS: readonly OddsSpotRow[] = [
  {
    name: 'odds-holdem-headsup',
    request: { game: 'holdem', hands: ['AsKs', 'QhQd'] },
    peerGame: 'TexasHoldem',
    runs: 7,
  },
  {
    name: 'odds-holdem-3way',
    request: { game: 'holdem', hands: ['AsKs', 'QhQd', 'JcTc'] },
    peerGame: 'TexasHoldem',
    runs: 7,
  },
  {
    name: 'odds-omaha-flop',
    request: { game: 'omaha', board: '7h8h2c', hands: ['AhKh9s9d', 'QsJsTc8c'] },
    peerGame: 'Omaha',
    runs: 21,
  },
];

function timeFelt(spot: OddsSpotRow): number {
  const parsed = parseOddsRequest(spot.request);
  if (!parsed.ok) throw new Error(parsed.error.message);
  computeOdds(parsed.value); // warm: tables and compiled code
  const times: number[] = [];
  for (let run = 0; run < spot.runs; run++) {
    const start = performance.now();
    computeOdds(parsed.value);
    times.push(performance.now() - start);
  }
  return median(times);
}

function timePeer(spot: OddsSpotRow): number {
  const start = performance.now();
  const table = new PEER_GAMES[spot.peerGame]();
  // The spots hold hands of 2 or 4 cards, the shapes the peer's types allow.
  for (const hand of spot.request.hands)
    table.addPlayer(split(hand) as [string, string] | [string, string, string, string]);
  if (spot.request.board) table.setBoard(split(spot.request.board));
  table.exhaustive().calculate();
  return performance.now() - start;
}

const round1 = (value: number): number => Math.round(value * 10) / 10;

/**
 * odds-*: milliseconds for one exact equity calculation (every run-out enumerated), Felt against
 * poker-odds-calc's exhaustive mode on the same spot (one run of the peer: it takes seconds).
 */
export const oddsGroup: BenchGroup = {
  name: 'odds',
  async *rows() {
    for (const spot of ODDS_SPOTS) {
      // Let the rows printed so far reach the terminal before seconds of synchronous work.
      await setImmediate();
      const row: BenchRow = {
        name: spot.name,
        unit: 'ms',
        felt: round1(timeFelt(spot)),
        peers: { [PEER]: round1(timePeer(spot)) },
      };
      yield row;
    }
  },
};
