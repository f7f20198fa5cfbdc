/**
 * Provably fair dealing in the room end to end (docs/fairness.md): the real `felt serve` on a real
 * SQLite file, players and a spectator as real WebSocket clients, `felt bots` as a process.
 * - Every frame each client received over its socket is scanned for every hand's secret: none reaches a
 *   client before its hand ended (nor the chain's next secret, nor another player's contribution), a
 *   spectator never gets one, and the hand's players get it in its summary when every card dealt was
 *   shown (2-7 triple draw played down standing pat: nothing burned, nothing discarded).
 * - The history a player fetches (history-fetch) carries what a verifier needs once the secret is his:
 *   the engine's verifier checks it, hand by hand and as a chain, his own contribution among those used.
 * - `felt bots` contribute to every hand by themselves.
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { FAIR_FIELDS, parsePhh, verifyFairHands, type PhhHand } from '@felt/engine';
import type { TableView } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProtocolClient, type Push } from '../src/bots/client.js';
import type { TableConfig } from '../src/table/types.js';
import { felt, FeltServer, tempDir, writeTables } from './integration-helpers.js';

const HEADS_UP = 'fair-hu';
const BOTS_TABLE = 'fair-bots';
const tables: TableConfig[] = [
  {
    id: HEADS_UP,
    name: 'Fair heads-up',
    // A game that burns nothing: played down standing pat, its secret is revealed at once.
    game: 'triple-draw-27',
    structure: 'no-limit',
    stakes: { small: 100, big: 200 },
    currency: 'play',
    seats: 2,
    clocks: { betweenHandsMs: 1500 },
  },
  {
    id: BOTS_TABLE,
    name: 'Fair bots',
    game: 'omaha',
    structure: 'pot-limit',
    stakes: { small: 100, big: 200 },
    currency: 'play',
    clocks: { betweenHandsMs: 100 },
  },
];

type HandStart = Extract<Push, { op: 'hand-start' }>;

/** A client of the room that keeps every text frame its socket delivered, in order, as received. */
class Recorded {
  readonly frames: string[] = [];
  readonly pushes: Push[] = [];
  view: TableView | null = null;
  /** The bytes it contributed, by the commitment they answer. */
  readonly contributed = new Map<string, string>();
  id = 0;
  name = '';

  private constructor(readonly client: ProtocolClient) {
    client.onPush((message) => {
      this.pushes.push(message);
      if (message.op === 'table-snapshot') this.view = message.view;
    });
  }

  static async signUp(url: string, name: string): Promise<Recorded> {
    let recorded: Recorded | null = null;
    const early: string[] = [];
    // The socket's hook on each message's bytes, before anything reads them: a tap on every frame.
    const client = await ProtocolClient.connect(url, {
      skip: (data, start, end) => {
        (recorded?.frames ?? early).push(data.toString('utf8', start, end));
        return false;
      },
    });
    recorded = new Recorded(client);
    recorded.frames.push(...early);
    const data = await client.ok('signup', { name, password: 'correct horse battery' });
    recorded.id = data.account.id;
    recorded.name = name;
    return recorded;
  }

  summaries(): number[] {
    return this.pushes.flatMap((m) => (m.op === 'hand-summary' ? [m.summary.handId] : []));
  }

  starts(): HandStart[] {
    return this.pushes.filter((m): m is HandStart => m.op === 'hand-start');
  }
}

async function until(test: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A seated player who contributes to each hand and checks or calls every decision, showing down. */
async function seat(player: Recorded, seatNumber: number): Promise<void> {
  const { client } = player;
  client.onPush((message) => {
    if (!('tableId' in message) || message.tableId !== HEADS_UP) return;
    if (message.op === 'legal-actions' && message.legal.seat === seatNumber) {
      const { legal } = message;
      const action =
        legal.discard !== null ? { type: 'stand-pat' } : legal.check ? { type: 'check' } : { type: 'call' };
      void client.request('act', { tableId: HEADS_UP, handId: message.handId, action });
    }
    if (message.op === 'table-snapshot' && message.view.you !== null && message.view.fair !== null) {
      const { commitment } = message.view.fair;
      if (player.contributed.has(commitment)) return;
      const bytes = randomBytes(32).toString('hex');
      player.contributed.set(commitment, bytes);
      void client.request('fair-contribute', { tableId: HEADS_UP, commitment, bytes });
    }
  });
  await client.ok('table-open', { tableId: HEADS_UP });
  await client.ok('seat-take', { tableId: HEADS_UP, seat: seatNumber, buyIn: 10_000, post: 'post' });
  await client.ok('muck-losing', { tableId: HEADS_UP, enabled: false });
}

/** The index of the frame that ended hand `handId` for this client (its summary), or -1. */
const endOf = (client: Recorded, handId: number): number =>
  client.frames.findIndex((f) => f.startsWith('{"op":"hand-summary"') && f.includes(`"handId":${handId},`));

function phhOf(text: string): PhhHand {
  const parsed = parsePhh(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

describe('fair dealing in the room, over real WebSockets', () => {
  const data = tempDir('felt-fair-room-');
  let server: FeltServer;

  beforeAll(async () => {
    writeTables(data.dir, tables);
    server = await FeltServer.start(data.dir, 0);
  });
  afterAll(async () => {
    if (server.child.exitCode === null) await server.stop();
    data.remove();
  });

  it("felt bots contribute to every hand by themselves: every hand after the first lists both bots' hashes", async () => {
    const watcher = await Recorded.signUp(server.url, 'fairwatch');
    await watcher.client.ok('table-open', { tableId: BOTS_TABLE });
    const run = await felt(
      ['bots', '--url', server.url, '--bots', '2', '--game', 'omaha', '--structure', 'pl'].concat([
        '--hands',
        '4',
        '--think-ms',
        '0',
      ]),
    );
    expect(run.status, run.stderr).toBe(0);
    expect((run.json as { errors: number }).errors).toBe(0);
    const starts = watcher.starts();
    expect(starts.length).toBeGreaterThanOrEqual(4);
    // The first hand may start before a bot's contribution arrives; from the second on, both are in.
    for (const start of starts.slice(1)) expect(start.fair.contributions).toHaveLength(2);
    watcher.client.close();
  });

  it('no secret reaches a client before its hand ended; the fetched histories verify with the engine', async () => {
    const spectator = await Recorded.signUp(server.url, 'fairspec');
    await spectator.client.ok('table-open', { tableId: HEADS_UP });
    const alice = await Recorded.signUp(server.url, 'fairalice');
    const bob = await Recorded.signUp(server.url, 'fairbob');
    await seat(alice, 0);
    await seat(bob, 1);
    const players = [alice, bob];
    await until(() => players.every((p) => p.summaries().length >= 2), 'two hands to end');
    for (const p of players) await p.client.ok('seat-leave', { tableId: HEADS_UP });
    const handIds = alice.summaries().slice(0, 2);

    // What each player fetches: with every hand shown, the secret is his at once, and it verifies.
    for (const player of players) {
      const histories = [];
      for (const handId of handIds) {
        const { hand } = await player.client.ok('history-fetch', { handId });
        histories.push(phhOf(hand.phh));
      }
      expect(verifyFairHands(histories)).toEqual([{ ok: true }, { ok: true }]);
      // His own contribution to the second hand is among those used (the first may start before his).
      const second = histories[1]!;
      const own = player.contributed.get(second.extra[FAIR_FIELDS.commitment] as string);
      expect(second.extra[FAIR_FIELDS.contributions]).toContain(own);
    }
    for (const p of [spectator, ...players]) p.client.close();
    await server.stop();

    // The secrets, from the room's database: every hand's, and the chain's next one (never dealt).
    const db = new Database(join(data.dir, 'felt.db'), { readonly: true });
    const hands = db
      .prepare('SELECT id, fair_secret AS secret FROM hands WHERE table_id = ? ORDER BY id')
      .all(HEADS_UP) as { id: number; secret: string }[];
    const next = db.prepare('SELECT secret FROM fair_chains WHERE table_id = ?').get(HEADS_UP) as {
      secret: string;
    };
    db.close();
    expect(hands.map((h) => h.id).slice(0, 2)).toEqual(handIds);
    for (const { secret } of [...hands, next]) expect(secret).toMatch(/^[0-9a-f]{64}$/);

    for (const client of [spectator, ...players]) {
      expect(client.frames.length).toBeGreaterThan(20);
      for (const [i, { id, secret }] of hands.entries()) {
        const end = endOf(client, id);
        const seen = client.frames.findIndex((frame) => frame.includes(secret));
        // A player gets it with the summary of a hand whose every card dealt was shown — and not before.
        const expected = client !== spectator && i < 2 ? end : -1;
        expect(end === -1 && expected !== -1).toBe(false);
        expect(seen, `hand ${id}'s secret to ${client.name}`).toBe(expected);
      }
      expect(client.frames.some((frame) => frame.includes(next.secret))).toBe(false);
    }
    // A player's contribution reaches nobody else before the hand that used it ended, a spectator never.
    const handOf = new Map(alice.starts().map((start) => [start.fair.commitment, start.handId]));
    for (const [player, other] of [
      [alice, bob],
      [bob, alice],
    ] as const) {
      for (const [commitment, bytes] of other.contributed) {
        const handId = handOf.get(commitment);
        const end = handId === undefined ? -1 : endOf(player, handId);
        const before = end === -1 ? player.frames : player.frames.slice(0, end);
        expect(before.some((frame) => frame.includes(bytes))).toBe(false);
      }
    }
    const everyContribution = [...alice.contributed.values(), ...bob.contributed.values()];
    expect(spectator.frames.some((frame) => everyContribution.some((b) => frame.includes(b)))).toBe(false);
  });
});
