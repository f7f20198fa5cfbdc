/**
 * Game security: the reports find collusion planted among honest bots from the stored hand histories
 * alone, and flag no honest pair. The room (./integrity-room.ts) plays real tables into a real SQLite
 * file from fixed seeds, so the figures are the same on every run. FELT_LONG=1 adds the 20,000-hand
 * runs whose figures docs/operators.md records.
 */
import { describe, expect, it } from 'vitest';
import { roomIntegrity, type IntegrityDocument } from '../src/integrity/index.js';
import { normalUpperTail, poissonUpperTail } from '../src/integrity/statistics.js';
import type { StoredHand, UserId } from '../src/storage/index.js';
import { signedUp, startTestRoom } from './transport-client.js';
import { plantedRoom, type PlantedRoom } from './integrity-room.js';

const LONG = process.env['FELT_LONG'] === '1';

const key = (players: readonly { readonly id: UserId }[]): string =>
  players
    .map((p) => p.id)
    .sort((a, b) => a - b)
    .join(':');

const pairOf = (a: UserId, b: UserId): string => [a, b].sort((x, y) => x - y).join(':');

interface Outcome {
  readonly doc: IntegrityDocument;
  /** Flagged pairs (any pair report) of two honest players. */
  readonly honestPairsFlagged: string[];
  /** Flagged pairs of a colluder and an honest player (a colluder's play shows against his tablemates too). */
  readonly mixedPairsFlagged: string[];
  /** Honest players flagged as win-rate outliers. */
  readonly honestPlayersFlagged: UserId[];
  readonly honestPairs: number;
}

async function examine(room: PlantedRoom): Promise<Outcome> {
  const doc = await roomIntegrity(room.storage);
  const planted = new Set([pairOf(...room.softPair), pairOf(...room.dumping)]);
  const colluders = new Set([...room.softPair, ...room.dumping]);
  const flagged = [...doc.seating, ...doc.chipDumping, ...doc.softPlay].map((f) => key(f.players));
  const honest = room.players.filter((id) => !colluders.has(id)).length;
  return {
    doc,
    honestPairsFlagged: [
      ...new Set(flagged.filter((k) => k.split(':').every((id) => !colluders.has(Number(id))))),
    ],
    mixedPairsFlagged: [
      ...new Set(
        flagged.filter((k) => !planted.has(k) && k.split(':').some((id) => colluders.has(Number(id)))),
      ),
    ],
    honestPlayersFlagged: doc.winRate.map((f) => f.players[0]!.id).filter((id) => !colluders.has(id)),
    honestPairs: (honest * (honest - 1)) / 2,
  };
}

function expectPlantedFound(room: PlantedRoom, doc: IntegrityDocument): void {
  const soft = pairOf(...room.softPair);
  const [dumper, receiver] = room.dumping;
  expect(doc.softPlay.map((f) => key(f.players))).toContain(soft);
  expect(doc.seating.map((f) => key(f.players))).toEqual(
    expect.arrayContaining([soft, pairOf(dumper, receiver)]),
  );
  const dumping = doc.chipDumping.find((f) => f.from === dumper && f.to === receiver);
  expect(dumping).toBeDefined();
  expect(dumping!.hands.length).toBeGreaterThan(0);
  expect(dumping!.netFlow).toBeGreaterThan(0);
}

describe('game-security statistics', () => {
  it('the normal tail matches known values', () => {
    expect(normalUpperTail(0)).toBeCloseTo(0.5, 7);
    expect(normalUpperTail(1.959964)).toBeCloseTo(0.025, 6);
    expect(normalUpperTail(-1.959964)).toBeCloseTo(0.975, 6);
    expect(normalUpperTail(4.753424) / 1e-6).toBeCloseTo(1, 3);
  });

  it('the Poisson tail matches known values', () => {
    expect(poissonUpperTail(0, 3)).toBe(1);
    expect(poissonUpperTail(1, 3)).toBeCloseTo(1 - Math.exp(-3), 10);
    // P(X ≥ 10 | 3) = 0.0011025...
    expect(poissonUpperTail(10, 3)).toBeCloseTo(0.0011025, 6);
    expect(poissonUpperTail(5, 0)).toBe(0);
  });
});

describe('game-security reports over stored histories', () => {
  it('planted soft play and chip dumping are found in 3,000 hands at four-seat tables and no honest pair is flagged', async () => {
    const room = await plantedRoom({ seed: 1, hands: 3000, players: 16, tables: 4, seats: 4 });
    try {
      const outcome = await examine(room);
      expect(outcome.doc.hands).toBeGreaterThanOrEqual(3000);
      expect(outcome.doc.unreadable).toBe(0);
      expectPlantedFound(room, outcome.doc);
      expect(outcome.honestPairsFlagged).toEqual([]);
      expect(outcome.mixedPairsFlagged).toEqual([]);
      expect(outcome.honestPlayersFlagged).toEqual([]);
    } finally {
      await room.storage.close();
    }
  }, 240_000);

  it.runIf(LONG)(
    'over 20,000 hands, for each of 3 seeds, the planted pairs are found and no honest pair is flagged',
    async () => {
      for (const seed of [11, 12, 13]) {
        const started = Date.now();
        const room = await plantedRoom({ seed, hands: 20_000 });
        try {
          const outcome = await examine(room);
          console.log(
            JSON.stringify({
              seed,
              hands: outcome.doc.hands,
              seconds: Math.round((Date.now() - started) / 1000),
              honestPairs: outcome.honestPairs,
              honestPairsFlagged: outcome.honestPairsFlagged.length,
              mixedPairsFlagged: outcome.mixedPairsFlagged,
              honestPlayersFlagged: outcome.honestPlayersFlagged.length,
              seating: outcome.doc.seating.length,
              chipDumping: outcome.doc.chipDumping.length,
              softPlay: outcome.doc.softPlay.length,
              winRate: outcome.doc.winRate.length,
              softPlayPlanted: outcome.doc.softPlay
                .filter((f) => key(f.players) === pairOf(...room.softPair))
                .map((f) => [f.z, f.raises, f.expected]),
              chipDumpingPlanted: outcome.doc.chipDumping
                .filter((f) => f.from === room.dumping[0] && f.to === room.dumping[1])
                .map((f) => [f.z, f.netFlow, f.handCount]),
              seatingPlanted: outcome.doc.seating
                .filter((f) =>
                  f.players.some((p) => room.softPair.includes(p.id) || room.dumping.includes(p.id)),
                )
                .map((f) => [f.together, f.expected]),
            }),
          );
          expectPlantedFound(room, outcome.doc);
          expect(outcome.honestPairsFlagged).toEqual([]);
          expect(outcome.mixedPairsFlagged).toEqual([]);
          expect(outcome.honestPlayersFlagged).toEqual([]);
        } finally {
          await room.storage.close();
        }
      }
    },
    3_600_000,
  );
});

describe('the reports leave the room answering', () => {
  it('a table request sent once every hand is read (only the reports’ computing left) is answered before the report of 20,000 hands is done', async () => {
    const planted = await plantedRoom({ seed: 3, hands: 300, players: 12, tables: 2 });
    const sample = await planted.storage.settledHands({ limit: 5000 });
    await planted.storage.close();
    const copies = Math.ceil(20_000 / sample.length);
    // The planted hands over and over under new ids: a big room's histories, served at once.
    const many: StoredHand[] = Array.from({ length: copies }, (_, copy) =>
      sample.map((hand, i) => ({ ...hand, handId: copy * sample.length + i + 1 })),
    ).flat();
    let allRead!: () => void;
    const everyPageServed = new Promise<void>((resolve) => (allRead = resolve));
    const histories = {
      settledHands({ after = 0, limit = 500 }: { after?: number; limit?: number } = {}) {
        const page = many.filter((hand) => hand.handId > after).slice(0, limit);
        if (page.length < limit) allRead();
        return Promise.resolve(page);
      },
    };
    const room = await startTestRoom();
    try {
      const { client } = await signedUp(room);
      const order: string[] = [];
      const report = roomIntegrity(histories).then((doc) => {
        order.push('report');
        return doc;
      });
      await everyPageServed;
      await client.ok('table-open', { tableId: 'holdem-nl-play-100' });
      order.push('table answered');
      const doc = await report;
      expect(order).toEqual(['table answered', 'report']);
      expect(doc.hands).toBe(many.length);
      client.close();
    } finally {
      await room.close();
    }
  }, 240_000);
});
