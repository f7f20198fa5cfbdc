/**
 * Rebuys, add-ons and re-entries over the protocol: over a real WebSocket against a running room on a
 * real SQLite file, each bought by its op, its cost to the prize pool and its fee to the house through
 * the ledger like the buy-in, its chips in the stack (never in the ledger); each refusal a typed error
 * that moves no money.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LegalView, ServerMessage, WireHandAction } from '@felt/protocol';
import type { TournamentEntry } from '../src/tournament/schedule.js';
import { holdemDefinition, placesTaken } from './tournament-helpers.js';
import { signedUp, startTestRoom, type TestClient, type TestRoom } from './transport-client.js';

const CLOCKS = { betweenHandsMs: 1, actionMs: 60_000, timeBankMs: 0 } as const;
const WINDOW = { fromLevel: 0, untilLevel: 29 };

const REBUYS: TournamentEntry = {
  id: 'rebuys',
  definition: holdemDefinition({
    name: 'Rebuys',
    maxEntrants: 2,
    buyIn: 1000,
    fee: 100,
    rebuy: { cost: 500, fee: 50, chips: 500, maxPerPlayer: 1, maxStack: 1000, window: WINDOW },
    addOn: { cost: 300, fee: 30, chips: 700, maxPerPlayer: 1, window: { fromLevel: 0, untilLevel: 0 } },
  }),
};

let room: TestRoom | null = null;
afterEach(async () => {
  await room?.close();
  room = null;
});

type Push<O extends ServerMessage['op']> = Extract<ServerMessage, { op: O }>;
type Style = 'hold' | 'shove' | 'call' | 'fold';

/** Opens each table the room gives the client and answers each decision as `style()` says then ('hold': not yet). */
function autoplay(client: TestClient, style: () => Style): { release: () => void } {
  const held: (() => void)[] = [];
  const answer = (tableId: string, handId: number, legal: LegalView) => {
    const how = style();
    if (how === 'hold') {
      held.push(() => {
        answer(tableId, handId, legal);
      });
      return;
    }
    const facing = legal.call !== null;
    const action: WireHandAction =
      how === 'shove' && legal.raise !== null
        ? { type: facing ? 'raise' : 'bet', to: legal.raise.max }
        : how === 'fold' && facing && legal.fold
          ? { type: 'fold' }
          : facing
            ? { type: 'call' }
            : { type: 'check' };
    void client.request('act', { tableId, handId, action });
  };
  client.ws.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString('utf8')) as ServerMessage;
    if (message.op === 'tournament-seat') void client.request('table-open', { tableId: message.tableId });
    else if (message.op === 'legal-actions') answer(message.tableId, message.handId, message.legal);
  });
  return {
    release: () => {
      for (const go of held.splice(0)) go();
    },
  };
}

async function openRun(client: TestClient, entry: string): Promise<string> {
  const { tournaments } = await client.ok('tournament-list');
  const run = tournaments.find((t) => t.tournamentId.startsWith(`${entry}@`) && t.state === 'registering');
  if (run === undefined) throw new Error(`no open run of ${entry}`);
  return run.tournamentId;
}

async function errorCode(client: TestClient, op: Parameters<TestClient['request']>[0], fields: object) {
  const answer = await client.request(op, fields as Record<string, unknown>);
  return answer.op === 'error' ? answer.code : 'ack';
}

const play = async (client: TestClient) => (await client.ok('balances')).balances.play;

describe('rebuys, add-ons and re-entries over the protocol', () => {
  it('a rebuy and an add-on: each paid like the buy-in (cost to the pool, fee to the house), its chips in the stack; each refusal typed, moving no money; the pool paid out whole', async () => {
    room = await startTestRoom({ tables: [], tournaments: [REBUYS], tournamentClocks: CLOCKS });
    const r = room;
    const players = await Promise.all([signedUp(r), signedUp(r)]);
    let style: Style = 'hold';
    const games = players.map((p) => autoplay(p.client, () => style));
    const [ann, bob] = players;
    const id = await openRun(ann.client, 'rebuys');
    const before = await play(ann.client);
    expect(await errorCode(ann.client, 'tournament-rebuy', { tournamentId: id })).toBe('NOT_REGISTERED');
    const decision = Promise.race(players.map((p) => p.client.next((m) => m.op === 'legal-actions', 10_000)));
    for (const p of players) await p.client.ok('tournament-register', { tournamentId: id });
    expect(await errorCode(ann.client, 'tournament-rebuy', { tournamentId: 'nope@x' })).toBe(
      'NO_SUCH_TOURNAMENT',
    );
    await decision;

    // The first hand waits for its decisions: the chips bought come after it.
    const rebought = await ann.client.ok('tournament-rebuy', { tournamentId: id });
    expect(rebought.balances.play).toBe(before - 1100 - 550);
    expect(await errorCode(ann.client, 'tournament-rebuy', { tournamentId: id })).toBe('LIMIT_REACHED');
    const added = await ann.client.ok('tournament-addon', { tournamentId: id });
    expect(added.balances.play).toBe(before - 1100 - 550 - 330);
    expect(await errorCode(ann.client, 'tournament-addon', { tournamentId: id })).toBe('LIMIT_REACHED');
    // A sit & go sells no re-entry; Bob's stack is over the rebuy's limit once he has added on.
    expect(await errorCode(ann.client, 'tournament-reenter', { tournamentId: id })).toBe('NOT_OFFERED');
    await bob.client.ok('tournament-addon', { tournamentId: id });
    expect(await errorCode(bob.client, 'tournament-rebuy', { tournamentId: id })).toBe('STACK_TOO_BIG');
    expect(await play(ann.client)).toBe(before - 1100 - 550 - 330);
    expect(await play(bob.client)).toBe(before - 1100 - 330);

    const page = (await ann.client.ok('tournament-get', { tournamentId: id })).tournament;
    const pool = 2 * 1000 + 500 + 2 * 300;
    expect(page.prizes).toEqual([pool]);
    expect(page.rebuy).toMatchObject({ cost: 500, fee: 50, chips: 500, maxStack: 1000 });
    expect(page.reEntry).toBeNull();
    const annLine = page.players.find((p) => p.account === ann.id)!;
    expect(annLine).toMatchObject({ chips: 1000 + 500 + 700, rebuys: 1, addOns: 1, reEntries: 0 });
    expect(page.players.reduce((sum, p) => sum + p.chips, 0)).toBe(2 * 1000 + 500 + 2 * 700);

    const ends = players.map((p) =>
      p.client.next((m): m is Push<'tournament-end'> => m.op === 'tournament-end', 60_000),
    );
    style = 'shove';
    for (const g of games) g.release();
    // Both all in: whoever loses plays on with the chips he bought, added at the table after the hand.
    const chipsAt = (m: ServerMessage) =>
      m.op === 'table-snapshot' && m.view.hand === null
        ? m.view.seats.reduce((sum, seat) => sum + (seat?.stack ?? 0), 0)
        : null;
    await ann.client.next((m) => chipsAt(m) === 2 * 1000 + 500 + 2 * 700, 30_000, true);
    await Promise.all(ends);
    const over = (await ann.client.ok('tournament-get', { tournamentId: id })).tournament;
    expect(over.state).toBe('finished');
    expect(placesTaken(over.results)).toEqual([1, 2]);
    expect(over.results.reduce((sum, p) => sum + p.prize, 0)).toBe(pool);
    const prize = (account: number) => over.results.find((x) => x.account === account)!.prize;
    expect(await play(ann.client)).toBe(before - 1100 - 550 - 330 + prize(ann.id));
    expect(await play(bob.client)).toBe(before - 1100 - 330 + prize(bob.id));
    // Nothing is sold once it is over.
    expect(await errorCode(bob.client, 'tournament-addon', { tournamentId: id })).toBe('NOT_PLAYING');
    for (const p of players) p.client.close();
  }, 90_000);

  it('a re-entry: a player out enters again at the buy-in and fee, is seated with a starting stack, and takes one place at the end', async () => {
    const entry: TournamentEntry = {
      id: 'reentry',
      // Time enough to start the room and sign three players up on a busy machine.
      schedule: { startsAt: Date.now() + 10_000 },
      definition: holdemDefinition({
        name: 'Re-entry',
        kind: 'scheduled',
        maxEntrants: 3,
        buyIn: 1000,
        fee: 100,
        reEntry: { maxPerPlayer: 1, window: WINDOW },
      }),
    };
    room = await startTestRoom({ tables: [], tournaments: [entry], tournamentClocks: CLOCKS });
    const r = room;
    const players = await Promise.all([signedUp(r), signedUp(r), signedUp(r)]);
    // Ann and Bob go all in against each other until one is out; Cy stays out of their way.
    const styles: Style[] = ['shove', 'call', 'fold'];
    const games = players.map((p, i) => autoplay(p.client, () => styles[i]!));
    const id = await openRun(players[0].client, 'reentry');
    const before = await play(players[0].client);
    let first: (typeof players)[number] | null = null;
    const firstOut = Promise.race(
      players.map((p) =>
        p.client
          .next((m): m is Push<'tournament-out'> => m.op === 'tournament-out', 60_000)
          .then(() => {
            // Nobody else goes out while the re-entry is checked.
            if (first === null) styles.fill('hold');
            first ??= p;
            return first;
          }),
      ),
    );
    for (const p of players) await p.client.ok('tournament-register', { tournamentId: id });
    const cy = players[2];
    const out = await firstOut;
    expect(out).not.toBe(cy);
    expect(await errorCode(cy.client, 'tournament-reenter', { tournamentId: id })).toBe('STILL_PLAYING');

    const seatAgain = out.client.next(
      (m): m is Push<'tournament-seat'> => m.op === 'tournament-seat' && m.tournamentId === id,
      10_000,
    );
    const reentered = await out.client.ok('tournament-reenter', { tournamentId: id });
    expect(reentered.balances.play).toBe(before - 2 * 1100);
    await seatAgain;
    expect(await errorCode(out.client, 'tournament-reenter', { tournamentId: id })).toBe('LIMIT_REACHED');
    expect(await errorCode(out.client, 'tournament-rebuy', { tournamentId: id })).toBe('NOT_OFFERED');
    expect(await play(out.client)).toBe(before - 2 * 1100);
    const page = (await cy.client.ok('tournament-get', { tournamentId: id })).tournament;
    expect(page.playersLeft).toBe(3);
    expect(page.prizes.reduce((a, b) => a + b, 0)).toBe(4 * 1000);
    expect(page.players.find((p) => p.account === out.id)).toMatchObject({ reEntries: 1 });
    expect(page.results).toEqual([]);

    const ends = players.map((p) =>
      p.client.next((m): m is Push<'tournament-end'> => m.op === 'tournament-end', 60_000),
    );
    styles.fill('shove');
    for (const g of games) g.release();
    await Promise.all(ends);
    const over = (await cy.client.ok('tournament-get', { tournamentId: id })).tournament;
    expect(placesTaken(over.results)).toEqual([1, 2, 3]);
    expect(over.results.reduce((sum, p) => sum + p.prize, 0)).toBe(4 * 1000);
    for (const p of players) {
      const prize = over.results.find((x) => x.account === p.id)!.prize;
      const entries = p === out ? 2 : 1;
      expect(await play(p.client)).toBe(before - entries * 1100 + prize);
      p.client.close();
    }
  }, 120_000);
});
