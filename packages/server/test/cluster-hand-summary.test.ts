/**
 * The last hand's summary of a table another process runs (PostgreSQL, NATS): the owner alone keeps
 * it, so a player asks through his own process and is answered the owner's summary, filtered for him
 * exactly as the owner answers him there.
 */
import { describe, expect, it } from 'vitest';
import { ProtocolClient } from '../src/bots/client.js';
import { eventually } from './cluster-helpers.js';
import { Player } from './integration-helpers.js';
import { NATS_URL, natsReachable } from './nats-helpers.js';
import { postgresReachable, testDatabase } from './postgres-helpers.js';
import { nlHoldem } from './table-configs.js';
import { roomUrl, staffSignedIn, startTestRoom, type TestClient, type TestRoom } from './transport-client.js';

const reachable = (await postgresReachable()) && (await natsReachable());

const TABLE = 'summary-1';
/** Three seats for two players (a full table would make the lobbies open another); a long clock. */
const table = nlHoldem(TABLE, { seats: 3, clocks: { actionMs: 120_000, betweenHandsMs: 50 } });

describe.runIf(reachable)('the hand summary of a table run by another process (PostgreSQL, NATS)', () => {
  const db = testDatabase();

  it('hand-summary through a process that does not run the table answers what the owner answers the player', async () => {
    const url = await db.freshDatabase();
    const rooms: TestRoom[] = [];
    const players: Player[] = [];
    const clients: (TestClient | ProtocolClient)[] = [];
    try {
      // The first process takes the table before the second exists; the players come through the second.
      const owner = await startTestRoom({ db: url, bus: NATS_URL, node: 'summary-a', tables: [table] });
      rooms.push(owner);
      const { client: staff } = await staffSignedIn(roomUrl(owner), { url });
      clients.push(staff);
      const runsIt = async () => {
        const view = (await staff.ok('staff-figures')).figures.cluster!;
        const lease = view.leases.find((held) => held.tableId === TABLE);
        return lease !== undefined && lease.memberId === view.member && lease.expiresInMs > 0;
      };
      await eventually(async () => ((await runsIt()) ? true : null), 'the first process to run the table');
      const other = await startTestRoom({ db: url, bus: NATS_URL, node: 'summary-b', tables: [table] });
      rooms.push(other);
      const ann = await Player.signUp(roomUrl(other), 'ann');
      const bob = await Player.signUp(roomUrl(other), 'bob');
      players.push(ann, bob);
      const ended: number[] = [];
      ann.client.onPush((message) => {
        if (message.op === 'hand-summary' && message.tableId === TABLE) ended.push(message.summary.handId);
      });
      ann.autoplay = false;
      await ann.sit(TABLE, 0, 10_000);
      await bob.sit(TABLE, 1, 10_000);

      // Ann plays the first hand to its end, then lets the next one wait for her.
      const first = await eventually(async () => {
        const legal = ann.legal;
        if (legal === null) return null;
        const last = ended[ended.length - 1];
        if (last !== undefined && last < legal.handId) return last;
        ann.legal = null;
        const action = legal.legal.check ? { type: 'check' } : { type: 'call' };
        await ann.client.ok('act', { tableId: TABLE, handId: legal.handId, action });
        return null;
      }, 'the first hand to end');
      expect(await runsIt()).toBe(true);

      // Each player asks through his process, and through a second connection to the owner's.
      for (const player of [ann, bob]) {
        const direct = await ProtocolClient.connect(roomUrl(owner));
        clients.push(direct);
        await direct.ok('resume', { token: player.token });
        const { summary: there } = await direct.ok('hand-summary', { tableId: TABLE });
        const { summary } = await player.client.ok('hand-summary', { tableId: TABLE });
        expect(there?.handId).toBe(first);
        expect(summary).toEqual(there);
      }
    } finally {
      for (const client of [...players, ...clients]) client.close();
      await Promise.all(rooms.map((room) => room.close()));
    }
  });
});
