/**
 * A crash mid-tournament, for real: three players over real WebSockets play a sit & go of the table file
 * in a `felt serve` process, which is killed (SIGKILL) while a hand waits for a decision, and started
 * again on the same data folder. The tournament goes on from its checkpoint — the same players, stacks
 * and level, the hand in progress cancelled — and is played to its winner; the prizes add up to the pool,
 * every balance is what the entries and prizes make it, and `felt admin audit` finds the ledger conserved.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LegalView, TournamentDetail } from '@felt/protocol';
import { ProtocolClient } from '../src/bots/client.js';
import type { TournamentEntry } from '../src/tournament/schedule.js';
import { audit, FeltServer, freePort, tempDir } from './integration-helpers.js';
import { holdemDefinition, placesTaken } from './tournament-helpers.js';

const ENTRY: TournamentEntry = {
  id: 'crash-sng',
  definition: holdemDefinition({ name: 'Crash sit & go', maxEntrants: 3, buyIn: 1000, fee: 100 }),
  // A decision waits a minute: the test holds a hand open across the kill.
  clocks: { betweenHandsMs: 20, actionMs: 60_000, timeBankMs: 0 },
};

type Mode = 'call' | 'hold' | 'shove';

/** An entrant: follows his tables, and answers each decision by his mode (`hold`: not at all). */
class Entrant {
  client!: ProtocolClient;
  token = '';
  id = 0;
  balance = 0;
  mode: Mode = 'call';
  summaries = 0;
  /** The decision held (mode `hold`), answered when released. */
  held: { tableId: string; handId: number; legal: LegalView } | null = null;

  static async signUp(url: string, name: string): Promise<Entrant> {
    const entrant = new Entrant();
    entrant.client = await ProtocolClient.connect(url);
    entrant.listen();
    const data = await entrant.client.ok('signup', { name, password: 'correct horse battery' });
    entrant.token = data.token;
    entrant.id = data.account.id;
    entrant.balance = data.balances.play;
    return entrant;
  }

  async reconnect(url: string): Promise<readonly string[]> {
    this.client = await ProtocolClient.connect(url);
    this.listen();
    return (await this.client.ok('resume', { token: this.token })).tables;
  }

  private listen(): void {
    this.client.onPush((message) => {
      if (message.op === 'tournament-seat')
        void this.client.request('table-open', { tableId: message.tableId });
      else if (message.op === 'hand-summary') this.summaries++;
      else if (message.op === 'legal-actions') {
        this.held = { tableId: message.tableId, handId: message.handId, legal: message.legal };
        if (this.mode !== 'hold') this.answer();
      }
    });
  }

  /** From now on answers by `mode`, the decision held first. */
  play(mode: Exclude<Mode, 'hold'>): void {
    this.mode = mode;
    this.answer();
  }

  private answer(): void {
    const held = this.held;
    if (held === null) return;
    this.held = null;
    const action = choose(held.legal, this.mode);
    void this.client.request('act', { tableId: held.tableId, handId: held.handId, action });
  }
}

function choose(legal: LegalView, mode: Mode): Record<string, unknown> {
  if (mode === 'shove' && legal.raise !== null)
    return { type: legal.call === null ? 'bet' : 'raise', to: legal.raise.max };
  return legal.call !== null ? { type: 'call' } : { type: 'check' };
}

async function until(test: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const detail = async (entrant: Entrant, id: string): Promise<TournamentDetail> =>
  (await entrant.client.ok('tournament-get', { tournamentId: id })).tournament;

describe('crash: SIGKILL mid-tournament', () => {
  const data = tempDir('felt-tournament-crash-');
  afterAll(() => {
    data.remove();
  });

  it('after a restart the tournament goes on with the same players, stacks and level, and plays to its winner with the ledger conserved', async () => {
    const cash = {
      id: 'cash',
      name: 'cash',
      game: 'holdem',
      structure: 'no-limit',
      stakes: { small: 1, big: 2 },
      currency: 'play',
    };
    writeFileSync(join(data.dir, 'tables.json'), JSON.stringify({ tables: [cash], tournaments: [ENTRY] }));
    const port = await freePort();
    let server = await FeltServer.start(data.dir, port);
    const entrants = await Promise.all(
      ['ann', 'bob', 'cy'].map((name) => Entrant.signUp(server.url, `${name}${process.pid % 1000}`)),
    );
    const { tournaments } = await entrants[0]!.client.ok('tournament-list');
    const id = tournaments.find((t) => t.tournamentId.startsWith('crash-sng@'))!.tournamentId;
    for (const e of entrants) await e.client.ok('tournament-register', { tournamentId: id });

    // A few hands played, then a hand held open at a decision, and the room killed.
    await until(() => entrants.every((e) => e.summaries >= 4), 'four hands');
    for (const e of entrants) e.mode = 'hold';
    await until(() => entrants.some((e) => e.held !== null), 'a hand waiting for a decision');
    const before = await detail(entrants[0]!, id);
    expect(before.state).toBe('running');
    await server.kill();

    server = await FeltServer.start(data.dir, port);
    for (const e of entrants) {
      e.held = null;
      expect(await e.reconnect(server.url)).toHaveLength(1);
    }
    const after = await detail(entrants[0]!, id);
    expect(after.state).toBe('running');
    expect(after.level).toBe(before.level);
    expect(after.players).toEqual(before.players);
    expect(after.players.reduce((sum, p) => sum + p.chips, 0)).toBe(3 * ENTRY.definition.startingChips);

    const ends = entrants.map((e) => e.client.next((m) => m.op === 'tournament-end', 60_000));
    for (const e of entrants) e.play('shove');
    await Promise.all(ends);
    const over = await detail(entrants[0]!, id);
    expect(over.state).toBe('finished');
    expect(placesTaken(over.results)).toEqual([1, 2, 3]);
    expect(over.results.reduce((sum, r) => sum + r.prize, 0)).toBe(3 * ENTRY.definition.buyIn);
    for (const e of entrants) {
      const prize = over.results.find((r) => r.account === e.id)!.prize;
      expect((await e.client.ok('balances')).balances.play).toBe(e.balance - 1100 + prize);
      e.client.close();
    }
    expect(await server.stop()).toBe(0);
    const report = await audit(data.dir);
    expect(report.conserved).toBe(true);
    expect(report.problems).toEqual([]);
  }, 180_000);
});
