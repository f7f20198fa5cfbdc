/**
 * A room started by `felt cluster up`, attacked from its own bus by a client that holds a member's bus
 * credentials (the spare user: the same subject rights as a member) but no member's keys. What the
 * review did with such a client before the bus was closed — read the players' hole cards, subscribe to
 * a player's private view, fold a player at his turn, seat a stack nobody paid for, add a table to every
 * lobby — is each tried, and each is refused and logged: nothing changes, no hidden card is read, and
 * the ledger's audit finds every chip.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, type Msg, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameHeader, readFrame, SEALED, SIGNATURE_BYTES, SIGNED } from '../src/cluster/bus-frames.js';
import { PostgresDriver } from '../src/storage/index.js';
import { intCol } from '../src/storage/sql.js';
import { expectConserved } from './cluster-helpers.js';
import {
  clusterUp,
  roomOf,
  commandInstalled,
  spareConnection,
  type ClusterUp,
} from './cluster-up-helpers.js';
import { Player, tempDir, writeTables } from './integration-helpers.js';
import { postgresReachable, testDatabase } from './postgres-helpers.js';
import { nlHoldem } from './table-configs.js';

const TABLE = 'forged-1';
const reachable = (await commandInstalled('nats-server')) && (await postgresReachable());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(reachable)(
  'the bus of felt cluster up, attacked with bus credentials but no member key',
  () => {
    const db = testDatabase();
    const folder = tempDir('felt-forgery-');
    let cluster: ClusterUp;
    let room: string;
    let nc: NatsConnection;
    const heard: Msg[] = [];
    let alice: Player;
    let bob: Player;

    beforeAll(async () => {
      const tables = writeTables(folder.dir, [nlHoldem(TABLE)]);
      cluster = await clusterUp({
        processes: 2,
        db: await db.freshDatabase(),
        extraArgs: ['--tables', tables],
      });
      room = roomOf(cluster.db);
      nc = await connect(await spareConnection(cluster));
      nc.subscribe(`${room}.>`, { callback: (error, msg) => error === null && heard.push(msg) });
      await nc.flush();
      const [a, b] = cluster.members;
      alice = await Player.signUp(`ws://127.0.0.1:${String(a!.port)}`, 'alice');
      bob = await Player.signUp(`ws://127.0.0.1:${String(b!.port)}`, 'bob');
      // Alice answers nothing herself: the hand waits on her while the forgeries are tried.
      alice.autoplay = false;
      await alice.sit(TABLE, 0, 10_000, 'post');
      await bob.sit(TABLE, 1, 10_000, 'post');
    }, 180_000);
    afterAll(async () => {
      alice.close();
      bob.close();
      await nc.close();
      await cluster.stop();
      folder.remove();
    }, 120_000);

    /** The members live now, by their rows. */
    const liveMembers = async (): Promise<number[]> => {
      const driver = new PostgresDriver({ url: cluster.db, poolSize: 1 });
      try {
        const rows = await driver.all('SELECT id FROM cluster_members WHERE left_at IS NULL ORDER BY id');
        return rows.map((row) => intCol(row, 'id'));
      } finally {
        await driver.close();
      }
    };

    /** Sends `body` to every member's request subject as the client it is; the answers it got. */
    const forge = async (body: unknown): Promise<unknown[]> => {
      const answers: unknown[] = [];
      for (const member of await liveMembers()) {
        for (const desk of ['requests', 'tournaments']) {
          const answer = await nc
            .request(
              `${room}.member.${String(member)}.${desk}`,
              JSON.stringify({ requestId: randomUUID(), body }),
              {
                timeout: 1500,
              },
            )
            .then((msg) => msg.string())
            .catch(() => null);
          if (answer !== null) answers.push(answer);
        }
      }
      return answers;
    };

    it("no player's hole card travels in clear: every message is sealed to one member or a signed broadcast without them", async () => {
      await alice.event((event) => event.type === 'deal-hole' && event.seat === 0, 60_000);
      const bobsDeal = await bob.event((event) => event.type === 'deal-hole' && event.seat === 1, 60_000);
      await alice.event(() => alice.legal !== null, 60_000);
      await sleep(2000);
      const aliceDeal = alice.events.find(
        (push) => push.event.type === 'deal-hole' && push.event.seat === 0,
      )!;
      const holeCards = [aliceDeal, bobsDeal].flatMap((push) =>
        push.event.type === 'deal-hole' ? push.event.cards.filter((card) => card !== '??') : [],
      );
      expect(holeCards).toHaveLength(4);
      expect(heard.length).toBeGreaterThan(0);
      let sealed = 0;
      for (const msg of heard) {
        const frame = readFrame(msg.data);
        expect(frame).not.toBeNull();
        if (frame!.header.kind === SEALED) {
          sealed++;
          continue;
        }
        // A broadcast: signed, its body in clear — and without a hole card.
        const body = frame!.rest.subarray(SIGNATURE_BYTES).toString();
        expect(JSON.parse(body)).toBeTypeOf('object');
        for (const card of holeCards) expect(body).not.toContain(`"${card}"`);
      }
      // The players are on two processes: the table's owner pushed the other's view to it, sealed.
      expect(sealed).toBeGreaterThan(0);
    }, 120_000);

    it("a forged subscription to a player's private view, a fold at his turn and a seat nobody paid for are refused", async () => {
      await alice.event(() => alice.legal !== null, 60_000);
      const handId = alice.legal!.handId;
      const subject = `push.${String(999)}.${randomUUID()}`;
      const pushed: Msg[] = [];
      nc.subscribe(`${room}.${subject}`, { callback: (error, msg) => error === null && pushed.push(msg) });
      const player = { account: alice.id, name: 'alice' };
      const answers = [
        ...(await forge({ kind: 'subscribe', tableId: TABLE, viewer: alice.id, subject, member: 999 })),
        ...(await forge({
          kind: 'handle',
          tableId: TABLE,
          player,
          command: { type: 'act', handId, action: { type: 'fold' } },
        })),
        ...(await forge({
          kind: 'control',
          tableId: TABLE,
          command: {
            type: 'restore-seat',
            player: { account: 424_242, name: 'mallory' },
            seat: 4,
            stack: 1_000_000,
          },
        })),
        ...(await forge({ kind: 'handle', tableId: TABLE, player, command: { type: 'leave' } })),
      ];
      expect(answers).toEqual([]);
      expect(pushed).toEqual([]);
      // Still her hand, still her turn, still her seat; nobody at seat 4.
      expect(alice.legal?.handId).toBe(handId);
      expect(
        alice.events.some(
          (push) => push.event.type === 'fold' && push.event.seat === 0 && push.handId === handId,
        ),
      ).toBe(false);
      const view = await bob.until((v) => v.seats[0]?.name === 'alice');
      expect(view.seats.flatMap((seat) => (seat === null ? [] : [seat.name])).sort()).toEqual([
        'alice',
        'bob',
      ]);
    }, 120_000);

    it('forged lobby news adds no table to any lobby', async () => {
      const forged = nlHoldem('forged-real-money', { currency: 'real' });
      const news = {
        member: (await liveMembers())[0],
        tables: [{ tableId: forged.id, config: forged, epoch: 1_000_000 }],
      };
      nc.publish(`${room}.owned-tables`, JSON.stringify(news));
      // Signed by nobody: a frame naming a live member with a signature of zeros.
      const head = frameHeader({ kind: SIGNED, from: news.member!, to: 0, at: Date.now() });
      nc.publish(
        `${room}.owned-tables`,
        Buffer.concat([head, Buffer.alloc(64), Buffer.from(JSON.stringify(news))]),
      );
      await nc.flush();
      await sleep(3000);
      for (const member of cluster.members) {
        const answer = await fetch(`http://127.0.0.1:${String(member.port)}/api/tables`);
        const { tables } = (await answer.json()) as { tables: { tableId: string }[] };
        expect(tables.map((table) => table.tableId)).toContain(TABLE);
        expect(tables.map((table) => table.tableId)).not.toContain(forged.id);
      }
    }, 60_000);

    it('every forgery was logged by the member it reached, and the audit finds every chip', async () => {
      const logs = readdirSync(cluster.dir)
        .filter((name) => /^m\d+\.log$/.test(name))
        .map((name) => readFileSync(join(cluster.dir, name), 'utf8'))
        .join('\n');
      expect(logs).toContain('bus message refused');
      await expectConserved(cluster.db);
    }, 60_000);
  },
);
