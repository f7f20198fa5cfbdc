/**
 * The table machine driven command by command, without storage or clocks: each test steps
 * `step(state, command)` and asserts on the state it returns and the effects it asks for.
 */
import { seededRandom } from '@felt/engine';
import { describe, expect, it } from 'vitest';
import {
  CASH_GAME,
  memoryAllInCounter,
  createMachineState,
  planDeadButtonHand,
  resolveTable,
  step,
  type ControllerCommand,
  type Effect,
  type MachineState,
  type PlayerAction,
  type SeatPicture,
  type TableCommand,
  type TableConfig,
  type TablePolicies,
  type TableMessage,
} from '../src/table/index.js';
import { renderedFor, tableViewFor } from '../src/table/visibility.js';

const CONFIG: TableConfig = {
  id: 'm1',
  name: 'Machine',
  game: 'holdem',
  structure: 'no-limit',
  stakes: { small: 2, big: 4 },
  currency: 'play',
};

class Driver {
  readonly s: MachineState;
  now = 1_000;
  constructor(policies: TablePolicies = CASH_GAME, config: TableConfig = CONFIG) {
    this.s = createMachineState(resolveTable(config), policies, seededRandom(7));
    // As the actor does first: the table has no stored chain and starts one.
    step(this.s, { type: 'fair-chain', now: this.now, link: null });
  }
  private nextHand = 1;
  /** Steps a command; a hand's start is answered as storage would (the next hand id). */
  run(command: Parameters<typeof step>[1]): Effect[] {
    const { state, effects, result } = step(this.s, command);
    expect(state).toBe(this.s);
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
    const all = [...effects];
    const last = effects.at(-1);
    if (last?.type === 'persist' && last.write.kind === 'start-hand')
      all.push(...this.run({ type: 'hand-stored', now: this.now, handId: this.nextHand++ }));
    return all;
  }
  player(account: number, command: TableCommand): Effect[] {
    return this.run({ type: 'player', now: this.now, player: { account, name: `p${account}` }, command });
  }
  refused(account: number, command: TableCommand): string {
    const { result, effects } = step(this.s, {
      type: 'player',
      now: this.now,
      player: { account, name: `p${account}` },
      command,
    });
    expect(effects).toEqual([]);
    return result.ok ? 'ok' : result.error.code;
  }
  control(command: ControllerCommand): Effect[] {
    return this.run({ type: 'controller', now: this.now, command });
  }
  /** A subscribed, seated player (the ledger's buy-in is the actor's: the step takes it as paid). */
  sit(
    account: number,
    seat: number,
    buyIn = 200,
    extra: Partial<Extract<TableCommand, { type: 'sit' }>> = {},
  ) {
    this.s.presence.set(account, 1);
    return this.player(account, { type: 'sit', seat, buyIn, ...extra });
  }
  deal(): Effect[] {
    return this.run({ type: 'next-hand-due', now: this.now });
  }
  /** The account to act. */
  actor(): number {
    const hand = this.s.hand!;
    return hand.accounts[hand.engine.actor!]!;
  }
  act(action: PlayerAction, account = this.actor()): Effect[] {
    return this.player(account, { type: 'act', action });
  }
  timeUp(allInLeft = false): Effect[] {
    return this.run({ type: 'decision-time-up', now: this.now, armed: this.s.decisionFor, allInLeft });
  }
}

/** The effects as short words: `persist start-hand`, `broadcast 3 table-event post`, `timer decision 15000`, … */
function words(effects: readonly Effect[], viewer: number | null = null): string[] {
  const say = (m: TableMessage | null): string =>
    m === null ? 'nothing' : `${m.seq} ${m.type}${m.type === 'table-event' ? ` ${m.event.type}` : ''}`;
  return effects.map((e) => {
    switch (e.type) {
      case 'persist':
        return `persist ${e.write.kind}`;
      case 'broadcast':
        return `broadcast ${say(renderedFor(e.message, viewer))}`;
      case 'deliver':
        return `deliver ${e.to} ${say(e.message)}`;
      case 'timer':
        return `timer ${e.timer} ${e.ms ?? 'stop'}`;
      case 'tell':
        return `tell ${e.news.type}`;
    }
  });
}

const writes = (effects: readonly Effect[]) =>
  effects.flatMap((e) => (e.type === 'persist' ? [e.write] : []));

describe('table machine: seats', () => {
  it('a player sits: the snapshot is broadcast as stream message 1 and the next hand is scheduled', () => {
    const d = new Driver();
    expect(words(d.sit(1, 0))).toEqual(['broadcast 1 table-snapshot', 'timer next-hand 2000']);
    expect(d.s.seats[0]).toMatchObject({ account: 1, stack: 200, paid: false });
    expect(d.refused(2, { type: 'sit', seat: 0, buyIn: 200 })).toBe('SEAT_TAKEN');
    expect(d.refused(1, { type: 'sit', seat: 1, buyIn: 200 })).toBe('ALREADY_SEATED');
    expect(d.refused(2, { type: 'sit', seat: 1, buyIn: 1 })).toBe('BAD_BUY_IN');
    expect(d.s.stream).toBe(1);
  });

  it('a subscriber gets the snapshot at the current number; the stream does not advance', () => {
    const d = new Driver();
    d.sit(1, 0);
    const effects = d.run({ type: 'subscribed', now: d.now, subscriber: 9, viewer: null });
    expect(words(effects)).toEqual(['deliver 9 1 table-snapshot']);
    expect(d.s.stream).toBe(1);
  });
});

describe('table machine: a hand', () => {
  it('starts durable first: the hand is stored, its fair-dealing start and forced bets announced before the snapshot that shows them, then the deal is stored and announced, then the clock', () => {
    const d = new Driver();
    d.sit(1, 0);
    d.sit(2, 1);
    const effects = d.deal();
    expect(words(effects)).toEqual([
      'persist start-hand',
      'broadcast 3 hand-start',
      'broadcast 4 table-event post',
      'broadcast 5 table-event post',
      'broadcast 6 table-snapshot',
      'persist record-action',
      'broadcast 7 table-event deal-hole',
      'broadcast 8 table-event deal-hole',
      'broadcast 9 table-event round',
      'timer decision 15000',
      'broadcast 10 clock',
      'broadcast nothing',
    ]);
    expect(d.s.hand?.id).toBe(1);
    // legal actions go to the actor alone, numbered as the clock they follow
    const legal = effects.at(-1)!;
    expect(legal.type === 'broadcast' && renderedFor(legal.message, d.actor())).toMatchObject({
      type: 'legal-actions',
      seq: 10,
    });
  });
});

describe('table machine: rules, one by one', () => {
  it('a player who leaves mid-hand is folded when his turn comes and cashed out after the hand', () => {
    const d = new Driver();
    d.sit(1, 0);
    d.sit(2, 1);
    d.sit(3, 2);
    d.deal();
    const first = d.actor();
    const leaver = d.s.hand!.accounts.find((a) => a !== first)!;
    expect(words(d.player(leaver, { type: 'leave' }))).toEqual([expect.stringMatching(/table-snapshot/)]);
    expect(d.s.seats.find((s) => s?.account === leaver)).toMatchObject({ leaving: true, sittingOut: true });
    const effects: Effect[] = [];
    while (d.s.hand !== null) effects.push(...d.act({ type: 'fold' }));
    const kinds = writes(effects).map((w) => w.kind);
    expect(kinds).toContain('cash-out');
    expect(writes(effects).find((w) => w.kind === 'cash-out')).toEqual({ kind: 'cash-out', account: leaver });
    // durable first: the settlement's record before the summary, the cash-out before the seat goes
    const said = words(effects);
    expect(said.lastIndexOf('persist record-action')).toBeLessThan(
      said.findIndex((w) => w.includes('hand-summary')),
    );
    expect(d.s.seats.some((s) => s?.account === leaver)).toBe(false);
  });

  it('a player without auto-post is asked for his blind; no answer in time: he sits out', () => {
    const d = new Driver();
    d.sit(1, 0, 200, { autoPost: false, post: 'post' });
    d.sit(2, 1, 200, { autoPost: false, post: 'post' });
    d.sit(3, 2, 200, { autoPost: false, post: 'post' });
    // the first hand deals everybody fresh: each has agreed by choosing to post
    d.deal();
    while (d.s.hand !== null) d.act({ type: 'fold' });
    const asked = d.deal();
    expect(d.s.blindRequest).not.toBeNull();
    expect(words(asked)).toEqual(['timer blind 15000', expect.stringMatching(/table-snapshot/)]);
    const seat = d.s.blindRequest!.seat;
    d.run({ type: 'blind-time-up', now: d.now, request: d.s.blindRequest });
    expect(d.s.seats[seat]!.sittingOut).toBe(true);
  });

  it('the action clock runs out: the time bank starts; it runs out: the table checks or folds for him', () => {
    const d = new Driver();
    d.sit(1, 0);
    d.sit(2, 1);
    d.deal();
    const who = d.actor();
    const bank = d.timeUp();
    expect(words(bank)).toEqual(['timer decision 30000', expect.stringMatching(/clock$/)]);
    expect(d.s.hand!.clock).toMatchObject({ bank: true });
    const out = d.timeUp();
    expect(words(out)).toContain('persist record-action');
    expect(words(out).some((w) => w.endsWith('table-event timeout'))).toBe(true);
    // the bank was used up; the hand (a fold heads-up) is over and refilled it
    expect(d.s.seats.find((s) => s?.account === who)!.timeBankMs).toBe(2_000);
    // a time-up armed for a decision that is over changes nothing
    const stale = step(d.s, {
      type: 'decision-time-up',
      now: d.now,
      armed: { handId: 99, player: 0 },
      allInLeft: false,
    });
    expect(stale.effects).toEqual([]);
  });

  it('a disconnected player timing out at a real-money fixed-limit table with chips in: an artificial all-in, counted', () => {
    const d = new Driver(CASH_GAME, { ...CONFIG, structure: 'fixed-limit', currency: 'real' });
    d.sit(1, 0, 2_000);
    d.sit(2, 1, 2_000);
    d.deal();
    const who = d.actor();
    d.s.presence.delete(who);
    const effects = d.timeUp(true);
    expect(writes(effects)[0]).toEqual({ kind: 'all-in', account: who });
    const none = new Driver(CASH_GAME, { ...CONFIG, structure: 'fixed-limit', currency: 'real' });
    none.sit(1, 0, 2_000);
    none.sit(2, 1, 2_000);
    none.deal();
    none.s.presence.delete(none.actor());
    expect(writes(none.timeUp(false)).map((w) => w.kind)).toEqual(['record-action']);
  });

  it('hand start by the controller: no hand until allowed, one hand per allowance', () => {
    const d = new Driver({ ...CASH_GAME, handStart: 'controller' });
    expect(words(d.sit(1, 0))).toEqual(['broadcast 1 table-snapshot']);
    d.sit(2, 1);
    expect(d.deal()).toEqual([]);
    expect(words(d.control({ type: 'allow-hands', count: 1 }))).toEqual(['timer next-hand 2000']);
    d.deal();
    expect(d.s.hand).not.toBeNull();
    while (d.s.hand !== null) d.act({ type: 'fold' });
    expect(d.s.handsAllowed).toBe(0);
    expect(d.deal()).toEqual([]);
  });

  it('paused by the staff: its watchers are told in the view, the hand in play finishes, no other starts until resumed', () => {
    const d = new Driver(CASH_GAME);
    d.sit(1, 0);
    d.sit(2, 1);
    d.deal();
    expect(d.s.hand).not.toBeNull();
    const snapshot = expect.stringMatching(/^broadcast \d+ table-snapshot$/) as unknown;
    expect(words(d.control({ type: 'pause', paused: true }))).toEqual([snapshot]);
    expect(tableViewFor(d.s, null).paused).toBe(true);
    // Paused already: nothing to tell.
    expect(words(d.control({ type: 'pause', paused: true }))).toEqual([]);
    while (d.s.hand !== null) d.act({ type: 'fold' });
    expect(d.deal()).toEqual([]);
    expect(d.s.hand).toBeNull();
    expect(words(d.control({ type: 'pause', paused: false }))).toEqual([snapshot, 'timer next-hand 2000']);
    expect(tableViewFor(d.s, null).paused).toBe(false);
    d.deal();
    expect(d.s.hand).not.toBeNull();
  });

  it('controller chips: a stack is handed in with its player and out with him; players cannot buy in or leave', () => {
    const d = new Driver({ ...CASH_GAME, chips: 'controller' });
    d.s.presence.set(1, 1);
    const seated = d.control({ type: 'seat', player: { account: 1, name: 'p1' }, seat: 3, stack: 1_500 });
    expect(words(seated)).toEqual(['persist stack-in', 'broadcast 1 table-snapshot', 'timer next-hand 2000']);
    expect(writes(seated)[0]).toEqual({ kind: 'stack-in', account: 1, stack: 1_500 });
    expect(d.s.seats[3]).toMatchObject({ account: 1, stack: 1_500, paid: true });
    expect(d.refused(2, { type: 'sit', seat: 0, buyIn: 200 })).toBe('WRONG_STATE');
    expect(d.refused(1, { type: 'leave' })).toBe('WRONG_STATE');
    const out = d.control({ type: 'unseat', account: 1 });
    expect(words(out)).toEqual(['persist stack-out', 'tell left', 'broadcast 2 table-snapshot']);
    expect(writes(out)[0]).toEqual({ kind: 'stack-out', account: 1, stack: 1_500 });
    expect(d.s.seats[3]).toBeNull();
  });

  it('controller chips: a player left with no chips after a hand is reported busted', () => {
    const d = new Driver({ ...CASH_GAME, chips: 'controller' });
    for (const [account, seat] of [
      [1, 0],
      [2, 1],
    ] as const) {
      d.s.presence.set(account, 1);
      d.control({ type: 'seat', player: { account, name: `p${account}` }, seat, stack: 100 });
    }
    d.deal();
    const effects: Effect[] = [];
    while (d.s.hand !== null) {
      const legal = d.s.hand.engine.legalActions()!;
      effects.push(...d.act(legal.raise ? { type: 'raise', to: legal.raise.max } : { type: 'call' }));
    }
    const news = effects.flatMap((e) => (e.type === 'tell' ? [e.news] : []));
    expect(news[0]).toMatchObject({ type: 'hand-finished', handId: 1, number: 1 });
    const busted = news.flatMap((n) => (n.type === 'busted' ? [n.account] : []));
    const broke = d.s.seats.flatMap((s) => (s !== null && s.stack === 0 ? [s.account] : []));
    expect(broke).toHaveLength(1);
    expect(busted).toEqual(broke);
  });

  it('fixed stakes: every hand at the configured blinds; scheduled stakes: read at each hand start', () => {
    const fixed = new Driver();
    fixed.sit(1, 0);
    fixed.sit(2, 1);
    fixed.deal();
    expect(fixed.s.hand!.plan.blinds).toEqual([2, 1]);
    const scheduled = new Driver({
      ...CASH_GAME,
      stakes: {
        kind: 'schedule',
        at: (hand) => (hand === 1 ? { small: 2, big: 4 } : { small: 10, big: 20 }),
      },
    });
    scheduled.sit(1, 0, 200);
    scheduled.sit(2, 1, 200);
    scheduled.deal();
    expect(scheduled.s.hand!.plan.blinds).toEqual([2, 1]);
    while (scheduled.s.hand !== null) scheduled.act({ type: 'fold' });
    scheduled.deal();
    expect(scheduled.s.hand!.plan.blinds).toEqual([10, 5]);
    expect(scheduled.s.hand!.settings.config.stakes.small).toBe(10);
  });

  it('a decision is translated once and verified by the engine: a bad one is refused and changes nothing', () => {
    const d = new Driver();
    d.sit(1, 0);
    d.sit(2, 1);
    d.deal();
    const events = d.s.hand!.engine.events.length;
    expect(d.refused(d.actor(), { type: 'act', action: { type: 'raise', to: 1 } })).toBe('BAD_AMOUNT');
    expect(d.refused(d.actor(), { type: 'act', action: { type: 'check' } })).toBe('ILLEGAL_ACTION');
    expect(d.refused(d.actor(), { type: 'act', action: { type: 'show' } })).toBe('ILLEGAL_ACTION');
    const other = d.s.hand!.accounts.find((a) => a !== d.actor())!;
    expect(d.refused(other, { type: 'act', action: { type: 'fold' } })).toBe('NOT_YOUR_TURN');
    expect(d.s.hand!.engine.events.length).toBe(events);
  });
});

describe('table machine: a tournament table deals in the players who are away', () => {
  const TOURNAMENT_TABLE: TablePolicies = { ...CASH_GAME, chips: 'controller', button: 'dead' };

  it('a disconnected player is dealt in and blinded: he posts his big blind in turn, and when he must act the table checks or folds for him after his action clock and time bank', () => {
    const d = new Driver(TOURNAMENT_TABLE);
    for (const [account, seat] of [
      [1, 0],
      [2, 1],
      [3, 2],
    ] as const)
      d.control({ type: 'seat', player: { account, name: `p${account}` }, seat, stack: 1_000 });
    d.s.presence.set(1, 1);
    d.s.presence.set(2, 1); // 3 never connects
    const bigBlinds: number[] = [];
    for (let hand = 0; hand < 3; hand++) {
      d.deal();
      const dealt = d.s.hand!;
      expect([...dealt.accounts].sort()).toEqual([1, 2, 3]);
      const committed = dealt.engine.snapshot().players.map((p) => p.committed);
      bigBlinds.push(dealt.accounts[committed.indexOf(Math.max(...committed))]!);
      while (d.s.hand === dealt) {
        if (d.actor() !== 3) {
          d.act({ type: 'fold' });
          continue;
        }
        expect(words(d.timeUp())[0]).toMatch(/^timer decision \d+$/);
        expect(d.s.hand.clock).toMatchObject({ bank: true });
        expect(words(d.timeUp()).some((w) => w.endsWith('table-event timeout'))).toBe(true);
      }
    }
    // The big blind went round: the absent player skipped none.
    expect([...bigBlinds].sort()).toEqual([1, 2, 3]);
  });

  it('nobody sits out or is asked for a blind at a tournament table: sit-out is refused, blinds are posted with auto-post off', () => {
    const d = new Driver(TOURNAMENT_TABLE);
    for (const account of [1, 2]) {
      d.s.presence.set(account, 1);
      d.control({ type: 'seat', player: { account, name: `p${account}` }, seat: account, stack: 1_000 });
      d.player(account, { type: 'auto-post', on: false });
    }
    expect(d.refused(1, { type: 'sit-out' })).toBe('WRONG_STATE');
    expect(d.s.seats[1]!.sittingOut).toBe(false);
    d.deal();
    expect(d.s.blindRequest).toBeNull();
    expect(d.s.hand).not.toBeNull();
  });
});

describe('table machine: the dead button', () => {
  const ready = (seat: number): SeatPicture => ({
    seat,
    ready: true,
    paid: true,
    missedSmall: false,
    missedBig: false,
    wantsToPost: false,
  });

  it('the big blind moves one player on, the small blind takes the last big blind seat, the button the last small blind seat', () => {
    const plan = planDeadButtonHand(
      [0, 1, 2, 3].map(ready),
      6,
      { button: 0, smallBlind: 1, bigBlind: 2 },
      1,
      2,
    )!;
    expect(plan).toMatchObject({ button: 1, smallBlindSeat: 2, bigBlindSeat: 3, order: [2, 3, 0, 1] });
    expect(plan.blinds).toEqual([1, 2, 0, 0]);
  });

  it('the last big blind is gone: no small blind is posted and the button stays behind it', () => {
    const plan = planDeadButtonHand(
      [0, 1, 3, 4].map(ready),
      6,
      { button: 0, smallBlind: 1, bigBlind: 2 },
      1,
      2,
    )!;
    expect(plan).toMatchObject({ button: 1, bigBlindSeat: 3, order: [3, 4, 0, 1] });
    expect(plan.blinds).toEqual([2, 0, 0, 0]);
  });

  it('the last small blind is gone: the button is dead (an empty seat) and nobody takes it', () => {
    const plan = planDeadButtonHand(
      [0, 2, 3, 4].map(ready),
      6,
      { button: 0, smallBlind: 1, bigBlind: 2 },
      1,
      2,
    )!;
    expect(plan).toMatchObject({ button: 1, smallBlindSeat: 2, bigBlindSeat: 3, order: [2, 3, 4, 0] });
    expect(plan.blinds).toEqual([1, 2, 0, 0]);
  });

  it('a newcomer between the next button and small blind is dealt in only once the button has passed him, and a paid player there is dealt in', () => {
    const last = { button: 0, smallBlind: 2, bigBlind: 4 };
    // Next hand: button 2, small blind 4; seats 2, 3 and 4 lie behind the blinds.
    const newcomer = { ...ready(3), paid: false };
    const plan = planDeadButtonHand([0, 1, 2, 4, 5].map(ready).concat(newcomer), 6, last, 1, 2)!;
    expect(plan).toMatchObject({ button: 2, smallBlindSeat: 4, bigBlindSeat: 5 });
    expect(plan.order).not.toContain(3);
    expect(plan.order).toEqual(expect.arrayContaining([2, 4]));
    // Two others left: heads-up is planned afresh, still without him.
    const headsUp = planDeadButtonHand([0, 5].map(ready).concat(newcomer), 6, last, 1, 2)!;
    expect([...headsUp.order].sort()).toEqual([0, 5]);
    // The hand after: button 4, small blind 5 — he is past the button, dealt in and paid.
    const next = planDeadButtonHand(
      [0, 1, 2, 4, 5].map(ready).concat(newcomer),
      6,
      { button: 2, smallBlind: 4, bigBlind: 5 },
      1,
      2,
    )!;
    expect(next.order).toContain(3);
    expect(next.nowPaid).toContain(3);
    // A newcomer elsewhere (the next big blind's seat) is dealt in at once.
    const atBigBlind = planDeadButtonHand(
      [0, 1, 2, 4].map(ready).concat({ ...ready(5), paid: false }),
      6,
      last,
      1,
      2,
    )!;
    expect(atBigBlind).toMatchObject({ bigBlindSeat: 5 });
  });

  it('a tournament seats a late player with afterButton: he sits unpaid, not dealt in until the button passes', () => {
    const d = new Driver({ ...CASH_GAME, button: 'dead', chips: 'controller' });
    for (const seat of [0, 1, 2, 3, 4])
      d.control({ type: 'seat', player: { account: seat + 1, name: `p${seat}` }, seat, stack: 200 });
    d.deal();
    while (d.s.hand !== null) d.act({ type: 'fold' });
    // Between hands the player at the next button's seat (the last small blind's) is moved out, and a
    // late player is given his seat: he would have the button without paying a blind.
    const button = d.s.lastSmallBlind!;
    d.control({ type: 'unseat', account: d.s.seats[button]!.account });
    d.control({
      type: 'seat',
      player: { account: 9, name: 'late' },
      seat: button,
      stack: 200,
      afterButton: true,
    });
    expect(d.s.seats[button]).toMatchObject({ account: 9, paid: false });
    d.deal();
    expect(d.s.hand!.accounts).not.toContain(9);
  });

  it('a dead-button table deals its second hand by that rule', () => {
    const d = new Driver({ ...CASH_GAME, button: 'dead', chips: 'controller' });
    for (const seat of [0, 1, 2, 3]) {
      d.s.presence.set(seat + 1, 1);
      d.control({ type: 'seat', player: { account: seat + 1, name: `p${seat}` }, seat, stack: 200 });
    }
    d.deal();
    const first = { sb: d.s.lastSmallBlind!, bb: d.s.lastBigBlind! };
    while (d.s.hand !== null) d.act({ type: 'fold' });
    d.deal();
    expect(d.s.button).toBe(first.sb);
    expect(d.s.lastSmallBlind).toBe(first.bb);
    expect(d.s.lastBigBlind).toBe((first.bb + 1) % 4);
  });
});

describe('artificial all-ins: the table’s own allowance', () => {
  it('the room’s one counter counts every table’s grants but each table asks with its allInsPerDay', () => {
    const counter = memoryAllInCounter();
    expect(counter.take(1, 0, 1)).toBe(true);
    expect(counter.take(1, 1, 1)).toBe(false); // a table allowing one a day
    expect(counter.left(1, 1, 3)).toBe(2); // a table allowing three
    expect(counter.take(1, 2, 3)).toBe(true);
    expect(resolveTable({ ...CONFIG, allInsPerDay: 5 }).allInsPerDay).toBe(5);
  });
});

describe('table machine: run it twice', () => {
  const RIT: TableConfig = { ...CONFIG, runItTwice: true };

  /** Two players, the hand dealt, one all in and called: where the table stands then. */
  function allIn(config: TableConfig = RIT): { d: Driver; effects: Effect[] } {
    const d = new Driver(CASH_GAME, config);
    d.sit(1, 0);
    d.sit(2, 1);
    d.deal();
    d.act({ type: 'raise', to: 200 });
    return { d, effects: d.act({ type: 'call' }) };
  }
  const boardEvents = (effects: readonly Effect[]) =>
    effects.flatMap((e) => {
      const m = e.type === 'broadcast' ? renderedFor(e.message, null) : null;
      return m?.type === 'table-event' && m.event.type === 'deal-board' ? [m.event] : [];
    });
  const settled = (effects: readonly Effect[]) =>
    writes(effects).flatMap((w) =>
      w.kind === 'record-action' && w.record.settlement ? [w.record.settlement] : [],
    );

  it('all in with board cards to come: every player in is asked before any board card, the clock runs', () => {
    const { d, effects } = allIn();
    expect(words(effects).slice(-2)).toEqual([
      `timer run-twice 8000`,
      `broadcast ${d.s.stream} table-snapshot`,
    ]);
    expect(boardEvents(effects)).toEqual([]);
    const view = tableViewFor(d.s, 1).hand!;
    expect(view.board).toEqual([]);
    expect(view.runTwice).toEqual({ deadline: d.now + 8000, seats: [1, 0], accepted: [] });
  });

  it('everybody agrees: the board is run twice, each run wins half the pot, the history says _runs = 2', () => {
    const { d } = allIn();
    const first = d.player(1, { type: 'run-twice', accept: true });
    expect(words(first)).toEqual([`broadcast ${d.s.stream} table-snapshot`]);
    expect(tableViewFor(d.s, null).hand!.runTwice!.accepted).toEqual([0]);
    expect(d.refused(1, { type: 'run-twice', accept: true })).toBe('WRONG_STATE');
    const last = d.player(2, { type: 'run-twice', accept: true });
    // The offer ends (its clock stopped, the snapshot without it), then the agreement and both runs.
    expect(words(last).slice(0, 2)).toEqual([
      'timer run-twice stop',
      expect.stringMatching(/table-snapshot$/),
    ]);
    expect(words(last)).toEqual(expect.arrayContaining([expect.stringMatching(/table-event run-twice$/)]));
    expect(boardEvents(last).map((e) => ('run' in e ? e.run : 1))).toEqual([1, 1, 1, 2, 2, 2]);
    expect(d.s.hand).toBeNull();
    const recap = d.s.recap!;
    expect(recap.board).toHaveLength(5);
    expect(recap.secondBoard).toHaveLength(5);
    expect(new Set(recap.awards.map((a) => a.run))).toEqual(new Set([1, 2]));
    // Each shown hand is named on each board: the second from the second run's five cards.
    for (const player of recap.players) {
      const secondBoard = new Set(recap.secondBoard);
      expect(player.high!.cards.filter((card) => secondBoard.has(card))).toEqual([]);
      const onSecond = player.second!.high!.cards.filter((card) => !player.cards.includes(card));
      expect(onSecond.every((card) => secondBoard.has(card))).toBe(true);
      expect(player.second!.high!.name).not.toBe('');
    }
    const [settlement] = settled(last);
    expect(settlement!.history.phh).toContain('_runs = 2');
    expect(settlement!.history.phh).toContain('# second run');
    expect(d.s.seats[0]!.stack + d.s.seats[1]!.stack).toBe(400);
  });

  it('one player declines: the board is run once, at once', () => {
    const { d } = allIn();
    d.player(2, { type: 'run-twice', accept: true });
    const declined = d.player(1, { type: 'run-twice', accept: false });
    expect(boardEvents(declined)).toHaveLength(3);
    expect(boardEvents(declined).some((e) => 'run' in e)).toBe(false);
    expect(d.s.recap!.secondBoard).toBeNull();
    expect(d.s.recap!.players.every((player) => player.second === undefined)).toBe(true);
    expect(settled(declined)[0]!.history.phh).not.toContain('_runs');
  });

  it('no answer in time is no; a late answer is refused', () => {
    const { d } = allIn();
    d.player(1, { type: 'run-twice', accept: true });
    const offer = d.s.hand!.runTwice;
    d.now += 8000;
    const out = d.run({ type: 'run-twice-time-up', now: d.now, offer });
    expect(boardEvents(out)).toHaveLength(3);
    expect(d.s.recap!.secondBoard).toBeNull();
    expect(d.refused(2, { type: 'run-twice', accept: true })).toBe('WRONG_STATE');
    // A timer of an offer already answered changes nothing.
    expect(d.run({ type: 'run-twice-time-up', now: d.now, offer })).toEqual([]);
  });

  it('only the players in the hand answer; nothing is offered without the option', () => {
    const { d } = allIn();
    expect(d.refused(3, { type: 'run-twice', accept: true })).toBe('NOT_SEATED');
    const plain = allIn(CONFIG);
    expect(plain.d.s.hand).toBeNull();
    expect(boardEvents(plain.effects)).toHaveLength(3);
    expect(plain.d.refused(1, { type: 'run-twice', accept: true })).toBe('WRONG_STATE');
  });

  it('the option is refused at a game with no board to run', () => {
    expect(() => resolveTable({ ...RIT, game: 'stud', structure: 'fixed-limit' })).toThrow(
      /no board to run twice/,
    );
    expect(resolveTable(RIT).runItTwice).toBe(true);
    expect(resolveTable(CONFIG).runItTwice).toBe(false);
  });
});
