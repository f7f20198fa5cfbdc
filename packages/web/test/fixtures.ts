import type { FairHandView, HandView, SeatView, TableView, TournamentDetail } from '@felt/protocol';

/** A hand's public chain entry: the values only need the right shape here. */
export const FAIR_HAND: FairHandView = {
  version: 1,
  hand: 1,
  previous: '00'.repeat(32),
  commitment: '11'.repeat(32),
  contributions: [],
};

export function seat(
  seatNumber: number,
  name: string,
  stack: number,
  patch: Partial<SeatView> = {},
): SeatView {
  return {
    seat: seatNumber,
    account: seatNumber + 1,
    name,
    bot: false,
    stack,
    status: 'playing',
    connected: true,
    missed: { small: false, big: false },
    paid: true,
    autoPost: true,
    muckLosing: true,
    timeBankMs: 30_000,
    ...patch,
  };
}

/** A heads-up hold'em hand seen by seat 0 (alice): her cards face up, bob's hidden. */
export function holdemView(patch: Partial<HandView> = {}): TableView {
  return {
    tableId: 'nl-holdem-1',
    name: 'Aldebaran',
    game: 'holdem',
    structure: 'no-limit',
    stakes: { small: 2, big: 2 },
    stakesText: '0.01/0.02',
    currency: 'play',
    seatCount: 6,
    minBuyIn: 40,
    maxBuyIn: 200,
    button: 1,
    seats: [seat(0, 'alice', 198), seat(1, 'bob', 199), null, null, null, null],
    you: 0,
    blindRequest: null,
    paused: false,
    fair: null,
    hand: {
      handId: 7,
      number: 1,
      fair: FAIR_HAND,
      phase: 'bet',
      street: 0,
      board: [],
      secondBoard: null,
      runTwice: null,
      pots: [{ amount: 0, seats: [0, 1] }],
      currentBet: 2,
      actor: 1,
      deadline: null,
      players: [
        {
          seat: 0,
          stack: 198,
          bet: 2,
          committed: 2,
          folded: false,
          allIn: false,
          cards: ['As', 'Kd'],
          up: [false, false],
        },
        {
          seat: 1,
          stack: 199,
          bet: 1,
          committed: 1,
          folded: false,
          allIn: false,
          cards: ['??', '??'],
          up: [false, false],
        },
      ],
      legal: null,
      ...patch,
    },
  };
}

/** A scheduled tournament's run id, and its page while it runs (alice 2nd of 2 left, carol out 3rd). */
export const TOURNAMENT_RUN = 'daily@2026-12-03T20:00:00.000Z';

export const tournamentDetail: TournamentDetail = {
  tournamentId: TOURNAMENT_RUN,
  name: 'Daily',
  kind: 'scheduled',
  games: [{ game: 'holdem', structure: 'no-limit' }],
  currency: 'play',
  buyIn: 1000,
  fee: 100,
  entrants: 3,
  minEntrants: 2,
  maxEntrants: 9,
  startsAt: Date.UTC(2026, 11, 3, 20),
  state: 'running',
  playersLeft: 2,
  registered: true,
  startingChips: 1_500,
  seatsPerTable: 9,
  levels: [
    { blinds: { small: 5, big: 10 } },
    { blinds: { small: 10, big: 20 }, ante: 20, bigBlindAnte: true },
  ],
  levelLength: { unit: 'minutes', value: 10 },
  breaks: null,
  level: 0,
  clock: { phase: 'level', remainingMs: 65_000, remainingHands: null, breakNext: false, paused: false },
  prizes: [3000],
  rebuy: null,
  addOn: null,
  reEntry: null,
  players: [
    { account: 1, name: 'alice', chips: 1_000, rank: 2, rebuys: 0, addOns: 0, reEntries: 0 },
    { account: 2, name: 'bob', chips: 3_500, rank: 1, rebuys: 0, addOns: 0, reEntries: 0 },
    { account: 3, name: 'carol', chips: 0, rank: null, rebuys: 0, addOns: 0, reEntries: 0 },
  ],
  tables: [{ tableId: `${TOURNAMENT_RUN}-1`, players: 2 }],
  results: [{ account: 3, name: 'carol', place: 3, tied: 1, prize: 0 }],
  deal: null,
};
