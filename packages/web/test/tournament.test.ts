import { describe, expect, it } from 'vitest';
import {
  clockLeft,
  levelStakes,
  offersOf,
  ordinal,
  refusalText,
  standingOf,
  tableNumber,
  tournamentOfScreen,
  tournamentOfTable,
  tournamentScreen,
  TOURNAMENT_LOBBY_SCREEN,
} from '../src/tournament';
import { TOURNAMENT_RUN as RUN, tournamentDetail as DETAIL } from './fixtures';

describe('tournaments as the client shows them', () => {
  it('a tournament table names its tournament by its id; a cash table names none', () => {
    expect(tournamentOfTable(`${RUN}-1`)).toBe(RUN);
    expect(tournamentOfTable(`${RUN}-12-3`)).toBe(RUN);
    expect(tournamentOfTable('holdem-nl-play-100')).toBeNull();
    expect(tournamentOfTable('nl-2')).toBeNull();
    expect(tableNumber(`${RUN}-12-3`)).toBe('12');
    expect(tableNumber('nl-2')).toBeNull();
  });

  it('the tournament screens never take a table id', () => {
    expect(tournamentOfScreen(tournamentScreen(RUN))).toBe(RUN);
    expect(tournamentOfScreen(TOURNAMENT_LOBBY_SCREEN)).toBeNull();
    expect(tournamentOfScreen(`${RUN}-1`)).toBeNull();
  });

  it("a level's stakes in words, in whole tournament chips", () => {
    expect(levelStakes({ blinds: { small: 5, big: 10 } })).toBe('Blinds 5/10');
    expect(levelStakes({ blinds: { small: 1000, big: 2000 }, ante: 2000, bigBlindAnte: true })).toBe(
      'Blinds 1,000/2,000 · ante 2,000 (big blind ante)',
    );
    expect(levelStakes({ bringIn: 1, ante: 5, limits: { small: 4, big: 8 } })).toBe(
      'Bring-in 1 · ante 5 · limits 4/8',
    );
    expect(levelStakes(null)).toBe('—');
  });

  it('places read as ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '101st',
      '111th',
    ]);
  });

  it('the clock counts down from the server’s figure, says hands for levels by hands, and names a break coming; stopped for a deal, it stands still', () => {
    const minutes = {
      phase: 'level',
      remainingMs: 65_000,
      remainingHands: null,
      breakNext: false,
      paused: false,
    } as const;
    expect(clockLeft(minutes, 0)).toBe('1:05 to the next level');
    expect(clockLeft(minutes, 6_000)).toBe('0:59 to the next level');
    expect(clockLeft(minutes, 90_000)).toBe('0:00 to the next level');
    expect(clockLeft({ ...minutes, remainingMs: null, remainingHands: 1, breakNext: true }, 0)).toBe(
      '1 hand to the break',
    );
    expect(clockLeft({ ...minutes, remainingMs: null, remainingHands: 3 }, 0)).toBe(
      '3 hands to the next level',
    );
    expect(clockLeft({ ...minutes, phase: 'break', remainingMs: 180_000 }, 0)).toBe('On a break: 3:00 left');
    expect(clockLeft({ ...minutes, phase: 'break-due', remainingMs: 0 }, 0)).toBe(
      'Break after the hands in play',
    );
    // While a deal is open the time is stopped: it does not count down.
    expect(clockLeft({ ...minutes, paused: true }, 6_000)).toBe(
      'Clock stopped for the deal: 1:05 to the next level',
    );
  });

  it("the bar's figures: players left, their average stack, his rank (none once out)", () => {
    expect(standingOf(DETAIL, 1)).toEqual({ left: 2, average: 2_250, rank: 2 });
    expect(standingOf(DETAIL, 3).rank).toBeNull();
    expect(standingOf(DETAIL, null).rank).toBeNull();
  });

  it("the server's refusals in plain words, with its code", () => {
    expect(refusalText('REGISTRATION_CLOSED', 'full')).toBe(
      'Registration is closed: the tournament is full, over, or past late registration. (REGISTRATION_CLOSED)',
    );
    expect(refusalText('SOMETHING_NEW', 'the room says no')).toBe('the room says no (SOMETHING_NEW)');
  });

  it('sold to him now: a rebuy (stack up to its limit) or add-on while in, in their window and under their limits; a re-entry once out', () => {
    const window = { fromLevel: 0, untilLevel: 1 };
    const selling = {
      ...DETAIL,
      rebuy: { cost: 1000, fee: 100, chips: 1_500, maxPerPlayer: 1, maxStack: 1_000, window },
      addOn: { cost: 500, fee: 50, chips: 3_000, maxPerPlayer: 1, window },
      reEntry: { maxPerPlayer: 1, window },
    };
    expect(offersOf(selling, 1).map((o) => o.op)).toEqual(['tournament-rebuy', 'tournament-addon']);
    // Bob's 3,500 chips are over the rebuy's limit.
    expect(offersOf(selling, 2).map((o) => o.op)).toEqual(['tournament-addon']);
    // Carol is out: a re-entry at the buy-in and fee for a starting stack.
    expect(offersOf(selling, 3)).toEqual([
      { op: 'tournament-reenter', label: 'Re-enter', cost: 1000, fee: 100, chips: 1_500 },
    ]);
    const bought = { ...selling, players: selling.players.map((p) => ({ ...p, rebuys: 1, addOns: 1 })) };
    expect(offersOf(bought, 1)).toEqual([]);
    expect(offersOf({ ...selling, level: 2 }, 1)).toEqual([]);
    expect(offersOf(DETAIL, 1)).toEqual([]);
    expect(offersOf(selling, null)).toEqual([]);
  });
});
