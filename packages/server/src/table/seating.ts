/**
 * Who plays the next hand, where the button goes, who posts what (RULES.md §1 new player, missed
 * blinds, button; see docs/tables.md for the house rules). Pure: the table passes a picture of its
 * seats and applies the plan.
 *
 * House rule: a MOVING button. Each hand the button moves clockwise to the next seat whose player is
 * ready and has paid his blinds (never to a new player or one who owes blinds). The small blind is the
 * first such player after the button, the big blind the first ready player after the small blind (a
 * new or returning player who lands there plays it and so pays his way in). Seated players who are
 * not ready (sitting out, disconnected, no chips) and are passed over while looking for the small
 * blind are marked MS, for the big blind ML. New and returning players between the button and the
 * small blind wait; elsewhere they post (a live big blind, plus the small blind dead when MS) when
 * they chose to (or auto-post), else wait for the big blind. Heads-up the button posts the small blind.
 */

export interface SeatPicture {
  readonly seat: number;
  /** Sitting in, connected, chips in front of him, not leaving. */
  readonly ready: boolean;
  /** Has paid his blinds since sitting down. */
  readonly paid: boolean;
  readonly missedSmall: boolean;
  readonly missedBig: boolean;
  /** Posts what he owes to play at once (his choice or auto-post) rather than wait for the big blind. */
  readonly wantsToPost: boolean;
}

export interface HandPlan {
  readonly button: number;
  /** Seats dealt in, in engine position order (button games: small blind first, button last). */
  readonly order: readonly number[];
  /** Live blind per position (button games), dead blind per position. */
  readonly blinds: readonly number[];
  readonly deadBlinds: readonly number[];
  /** Seats newly marked: they missed the small / big blind in this hand. */
  readonly missedSmall: readonly number[];
  readonly missedBig: readonly number[];
  /** Seats that have now paid their way in (their marks cleared). */
  readonly nowPaid: readonly number[];
  readonly smallBlindSeat: number | null;
  readonly bigBlindSeat: number | null;
}

const owes = (s: SeatPicture): boolean => !s.paid || s.missedSmall || s.missedBig;

/** Seats clockwise after `from` (exclusive), all the way round to `from` (exclusive). */
function after(from: number, seatCount: number): number[] {
  return Array.from({ length: seatCount - 1 }, (_, i) => (from + 1 + i) % seatCount);
}

/**
 * Plans a hand at a button table; null when fewer than two players can be dealt in. `previous` is the
 * last button (null before the first hand). When fewer than two paid players are ready the table
 * starts afresh: every ready player is dealt in and counts as paid.
 */
export function planButtonHand(
  seats: readonly SeatPicture[],
  seatCount: number,
  previous: number | null,
  smallBlind: number,
  bigBlind: number,
): HandPlan | null {
  const bySeat = new Map(seats.map((s) => [s.seat, s]));
  const ready = seats.filter((s) => s.ready);
  if (ready.length < 2) return null;
  let fresh = false;
  if (ready.filter((s) => !owes(s)).length < 2) fresh = true;
  const active = (s: SeatPicture | undefined): boolean => s !== undefined && s.ready && (fresh || !owes(s));
  const start = previous ?? seatCount - 1;
  const button = [...after(start, seatCount), start].find((seat) => active(bySeat.get(seat)));
  if (button === undefined) return null;
  const missedSmall: number[] = [];
  const missedBig: number[] = [];
  const nowPaid: number[] = [];
  const dealt: { seat: number; blind: number; dead: number }[] = [];
  let sb: number | null = null;
  let bb: number | null = null;
  for (const seat of after(button, seatCount)) {
    const s = bySeat.get(seat);
    if (s === undefined) continue;
    if (sb === null) {
      if (active(s)) {
        sb = seat;
        dealt.push({ seat, blind: smallBlind, dead: 0 });
        if (fresh && owes(s)) nowPaid.push(seat);
      } else if (!s.ready && s.paid) missedSmall.push(seat);
      // a ready player who owes blinds, between the button and the small blind: waits
    } else if (bb === null) {
      if (s.ready) {
        bb = seat;
        dealt.push({ seat, blind: bigBlind, dead: 0 });
        if (fresh || owes(s)) nowPaid.push(seat);
      } else if (s.paid) missedBig.push(seat);
    } else if (active(s)) {
      dealt.push({ seat, blind: 0, dead: 0 });
      if (fresh && owes(s)) nowPaid.push(seat);
    } else if (s.ready && s.wantsToPost) {
      // a new or returning player posts his way in: a live big blind, the missed small one dead
      dealt.push({ seat, blind: bigBlind, dead: s.paid && s.missedSmall ? smallBlind : 0 });
      nowPaid.push(seat);
    }
  }
  if (sb === null) return null;
  const buttonSeat = bySeat.get(button)!;
  if (fresh && owes(buttonSeat)) nowPaid.push(button);
  if (bb === null) {
    // Heads-up: the button posts the small blind, the other player the big one.
    const other = dealt[0]!;
    return {
      button,
      order: [other.seat, button],
      blinds: [bigBlind, smallBlind],
      deadBlinds: [0, 0],
      missedSmall,
      missedBig,
      nowPaid: fresh && owes(bySeat.get(other.seat)!) ? [...nowPaid, other.seat] : nowPaid,
      smallBlindSeat: button,
      bigBlindSeat: other.seat,
    };
  }
  dealt.push({ seat: button, blind: 0, dead: 0 });
  return {
    button,
    order: dealt.map((d) => d.seat),
    blinds: dealt.map((d) => d.blind),
    deadBlinds: dealt.map((d) => d.dead),
    missedSmall,
    missedBig,
    nowPaid,
    smallBlindSeat: sb,
    bigBlindSeat: bb,
  };
}

/**
 * Plans a hand at a stud table (antes and bring-in, no blinds): every ready player is dealt in; the
 * dealer box moves one ready seat clockwise and position 0 is the first seat after it.
 */
export function planStudHand(
  seats: readonly SeatPicture[],
  seatCount: number,
  previous: number | null,
): HandPlan | null {
  const readySeats = new Set(seats.filter((s) => s.ready).map((s) => s.seat));
  if (readySeats.size < 2) return null;
  const start = previous ?? seatCount - 1;
  const box = [...after(start, seatCount), start].find((seat) => readySeats.has(seat))!;
  const order = [...after(box, seatCount), box].filter((seat) => readySeats.has(seat));
  return {
    button: box,
    order,
    blinds: order.map(() => 0),
    deadBlinds: order.map(() => 0),
    missedSmall: [],
    missedBig: [],
    nowPaid: order,
    smallBlindSeat: null,
    bigBlindSeat: null,
  };
}

/** The seats of the last hand's button and blinds (null before the first hand). */
export interface LastBlinds {
  readonly button: number | null;
  readonly smallBlind: number | null;
  readonly bigBlind: number | null;
}

/**
 * Dead button: the seats from the next button (the last small blind's) to the next small blind (the
 * last big blind's), both included — where a newcomer would be dealt in without posting a blind.
 */
export function behindTheBlinds(
  lastSmallBlind: number,
  lastBigBlind: number,
  seatCount: number,
): Set<number> {
  const seats = new Set([lastSmallBlind]);
  for (const seat of after(lastSmallBlind, seatCount)) {
    seats.add(seat);
    if (seat === lastBigBlind) break;
  }
  return seats;
}

/** The first hand, and heads-up play: planned as at a moving-button table, every player counted as paid. */
function planAsFresh(
  seats: readonly SeatPicture[],
  seatCount: number,
  last: LastBlinds,
  smallBlind: number,
  bigBlind: number,
): HandPlan | null {
  const paid = seats.map((s) => ({ ...s, paid: true, missedSmall: false, missedBig: false }));
  return planButtonHand(paid, seatCount, last.button, smallBlind, bigBlind);
}

/**
 * Plans a hand under the DEAD BUTTON rule (tournaments): every ready player is dealt in; the big blind
 * moves to the next ready player after the last big blind, the small blind is the seat of the last big
 * blind (posted only if that player is still there and ready: else no small blind is posted) and the
 * button the seat of the last small blind, even an empty one. A player not yet paid (seated late)
 * between that button and small blind is not dealt in until the button has passed him. The first
 * hand, and heads-up play, are planned as at a moving-button table with every player counted as paid.
 */
export function planDeadButtonHand(
  seats: readonly SeatPicture[],
  seatCount: number,
  last: LastBlinds,
  smallBlind: number,
  bigBlind: number,
): HandPlan | null {
  if (last.bigBlind === null || last.smallBlind === null)
    return planAsFresh(seats, seatCount, last, smallBlind, bigBlind);
  // A newcomer between the next button and small blind waits for the button to pass him.
  const behind = behindTheBlinds(last.smallBlind, last.bigBlind, seatCount);
  const waiting = seats.map((s) => (s.ready && !s.paid && behind.has(s.seat) ? { ...s, ready: false } : s));
  const ready = new Set(waiting.filter((s) => s.ready).map((s) => s.seat));
  if (ready.size < 2) return null;
  if (ready.size === 2) return planAsFresh(waiting, seatCount, last, smallBlind, bigBlind);
  const bb = after(last.bigBlind, seatCount).find((seat) => ready.has(seat))!;
  const sb = last.bigBlind;
  const button = last.smallBlind;
  const order = [...after(button, seatCount), button].filter((seat) => ready.has(seat));
  return {
    button,
    order,
    blinds: order.map((seat) => (seat === bb ? bigBlind : seat === sb ? smallBlind : 0)),
    deadBlinds: order.map(() => 0),
    missedSmall: [],
    missedBig: [],
    nowPaid: order,
    smallBlindSeat: sb,
    bigBlindSeat: bb,
  };
}
