/**
 * A room for the game-security tests: honest bots and planted colluders play No-Limit Hold'em at real
 * tables (the table actor), every hand written to a real SQLite file by the real storage, all from one
 * seed. The colluders decide from what their seat sees, as people would: a soft-playing pair never bets
 * or raises while the other is in the hand; a dumper calls his partner's bets and folds to his bet on
 * the river, the partner betting whenever the dumper is in. Names are random; the colluders are
 * random accounts among the rest, and each pair sits at one table whenever both play.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBelow, seededRandom, type RandomSource } from '@felt/engine';
import type { LegalView, WireHandAction } from '@felt/protocol';
import { chooseAction } from '../src/bots/strategy.js';
import { openMigratedSqliteStorage, type Storage, type UserId } from '../src/storage/index.js';
import {
  createTable,
  manualClock,
  memoryAllInCounter,
  type PlayerRef,
  type Table,
} from '../src/table/index.js';

export interface PlantedRoom {
  readonly storage: Storage;
  readonly hands: number;
  readonly softPair: readonly [UserId, UserId];
  /** `[dumper, receiver]`. */
  readonly dumping: readonly [UserId, UserId];
  readonly players: readonly UserId[];
}

export interface RoomOptions {
  readonly seed: number;
  /** At least this many hands are played (whole rounds). */
  readonly hands: number;
  readonly players?: number;
  readonly tables?: number;
  readonly handsPerRound?: number;
  /** Seats per table (default 6): fewer give more heads-up pots. */
  readonly seats?: number;
}

type Role =
  | { readonly kind: 'honest' }
  | { readonly kind: 'soft'; readonly partner: UserId }
  | { readonly kind: 'dumper'; readonly partner: UserId }
  | { readonly kind: 'receiver'; readonly partner: UserId };

const BIG_BLIND = 4;
const BUY_IN = 100 * BIG_BLIND;
const RIVER = 3;

function randomName(random: RandomSource): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  return Array.from({ length: 8 }, () => letters[randomBelow(random, letters.length)]).join('');
}

function shuffled<T>(list: readonly T[], random: RandomSource): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomBelow(random, i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const passive = (legal: LegalView): WireHandAction =>
  legal.check ? { type: 'check' } : legal.call !== null ? { type: 'call' } : { type: 'fold' };

/** The decision of a player by his role, from his own view of the table. */
function decide(table: Table, me: PlayerRef, role: Role, roll: () => number): WireHandAction {
  const view = table.view(me.account);
  const hand = view.hand!;
  const legal = hand.legal!;
  const honest = chooseAction(legal, [], roll);
  if (role.kind === 'honest') return honest;
  const partnerSeat = view.seats.find((s) => s?.account === role.partner)?.seat;
  const partner = hand.players.find((p) => p.seat === partnerSeat && !p.folded);
  if (partner === undefined) return honest;
  const aggressive = honest.type === 'bet' || honest.type === 'raise';
  switch (role.kind) {
    case 'soft':
      return aggressive ? passive(legal) : honest;
    case 'dumper': {
      const partnerBet = legal.call !== null && partner.bet > 0 && partner.bet === hand.currentBet;
      if (partnerBet) return hand.street >= RIVER ? { type: 'fold' } : { type: 'call' };
      return aggressive ? passive(legal) : honest;
    }
    case 'receiver':
      if (legal.check && legal.raise !== null) return { type: 'bet', to: legal.raise.min };
      return aggressive ? passive(legal) : honest;
  }
}

export async function plantedRoom(options: RoomOptions): Promise<PlantedRoom> {
  const random = seededRandom(options.seed);
  const roll = (): number => randomBelow(random, 1 << 30) / (1 << 30);
  const clock = manualClock();
  const dir = mkdtempSync(join(tmpdir(), 'felt-integrity-'));
  const storage = await openMigratedSqliteStorage({
    file: join(dir, 'felt.db'),
    synchronous: 'normal',
    clock: () => clock.now(),
  });
  const count = options.players ?? 30;
  const ids: UserId[] = [];
  const refs = new Map<UserId, PlayerRef>();
  for (let i = 0; i < count; i++) {
    const name = `${randomName(random)}${i}`;
    const created = await storage.createUser({ name, passwordHash: 'x', passwordSalt: 'x' });
    if (!created.ok) throw new Error(created.error.message);
    ids.push(created.value.id);
    refs.set(created.value.id, { account: created.value.id, name });
  }
  const [s1, s2, dumper, receiver] = shuffled(ids, random) as [UserId, UserId, UserId, UserId];
  const roles = new Map<UserId, Role>(ids.map((id) => [id, { kind: 'honest' }]));
  roles.set(s1, { kind: 'soft', partner: s2 });
  roles.set(s2, { kind: 'soft', partner: s1 });
  roles.set(dumper, { kind: 'dumper', partner: receiver });
  roles.set(receiver, { kind: 'receiver', partner: dumper });
  const SEATS = options.seats ?? 6;
  const errors: unknown[] = [];
  const tables = Array.from({ length: options.tables ?? 5 }, (_, t) =>
    createTable(
      {
        id: `t${t + 1}`,
        name: `Table ${t + 1}`,
        game: 'holdem',
        structure: 'no-limit',
        stakes: { small: BIG_BLIND, big: BIG_BLIND },
        currency: 'play',
        seats: SEATS,
      },
      {
        storage,
        clock,
        random: seededRandom(options.seed * 100 + t),
        allIns: memoryAllInCounter(),
        onError: (e) => errors.push(e),
      },
    ),
  );
  const perRound = options.handsPerRound ?? 25;
  let hands = 0;
  while (hands < options.hands) {
    // Seat this round: each player plays with probability 4/5; a colluding pair as one unit.
    const playing = new Set(ids.filter(() => randomBelow(random, 5) < 4));
    const units: UserId[][] = [];
    for (const id of shuffled([...playing], random)) {
      const role = roles.get(id)!;
      if (role.kind === 'honest' || !playing.has(role.partner)) units.push([id]);
      else if (id < role.partner) units.push([id, role.partner]);
    }
    const seated: { table: Table; player: PlayerRef; unsubscribe: () => void }[] = [];
    const free = tables.map(() => SEATS);
    for (const unit of units) {
      const open = tables.flatMap((_, t) => (free[t]! >= unit.length ? [t] : []));
      if (open.length === 0) continue;
      const t = open[randomBelow(random, open.length)]!;
      for (const id of unit) {
        const balance = await storage.balances(id);
        if (balance.play < BUY_IN) await storage.topUp(id, BUY_IN);
        const player = refs.get(id)!;
        // A seat with nobody watching is a disconnected player, who is not dealt in.
        const unsubscribe = tables[t]!.subscribe(id, () => undefined);
        const sat = await tables[t]!.handle(player, {
          type: 'sit',
          seat: SEATS - free[t]!,
          buyIn: BUY_IN,
          post: 'post',
        });
        if (!sat.ok) throw new Error(`sit: ${sat.error.message}`);
        free[t]!--;
        seated.push({ table: tables[t]!, player, unsubscribe });
      }
    }
    for (let h = 0; h < perRound; h++) {
      await Promise.all(tables.map((t) => t.idle()));
      clock.advance(2_000);
      await Promise.all(tables.map((t) => t.idle()));
      if (tables.every((t) => t.view(null).hand === null)) throw new Error('no table dealt a hand');
      for (const table of tables) {
        const started = table.view(null).hand?.handId;
        if (started === undefined) continue;
        for (let guard = 0; guard < 1000; guard++) {
          const hand = table.view(null).hand;
          if (hand === null || hand.handId !== started) break;
          const seat = hand.actor === null ? undefined : table.view(null).seats[hand.actor];
          if (seat === undefined || seat === null) throw new Error(`no actor in phase ${hand.phase}`);
          const player = refs.get(seat.account)!;
          const action = decide(table, player, roles.get(seat.account)!, roll);
          const result = await table.handle(player, { type: 'act', action, handId: started });
          if (!result.ok) throw new Error(`refused ${JSON.stringify(action)}: ${result.error.message}`);
        }
        hands++;
      }
    }
    await Promise.all(tables.map((t) => t.idle()));
    for (const { table, player, unsubscribe } of seated) {
      const left = await table.handle(player, { type: 'leave' });
      if (!left.ok) throw new Error(`leave: ${left.error.message}`);
      unsubscribe();
    }
    clock.advance(60_000);
    await Promise.all(tables.map((t) => t.idle()));
  }
  if (errors.length > 0) throw new Error(`table errors: ${String(errors[0])}`);
  return { storage, hands, softPair: [s1, s2], dumping: [dumper, receiver], players: ids };
}
