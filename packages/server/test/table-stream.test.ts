/**
 * Contract A, the table's stream: every broadcast carries the next number (1, 2, 3, … never reset),
 * a snapshot to one subscriber the current one, legal actions the number of the clock they follow; and
 * a client that applies only what follows its snapshot sees every forced bet once.
 */
import { seededRandom } from '@felt/engine';
import { describe, expect, it } from 'vitest';
import type { TableMessage } from '../src/table/index.js';
import { harness, playHand, sitAll } from './table-helpers.js';

describe('the table stream', () => {
  it('broadcasts are numbered one by one across hands; legal actions carry their clock’s number', async () => {
    const h = harness({ game: 'holdem', structure: 'no-limit' }, { players: 3, seed: 3 });
    await sitAll(h, 200);
    const random = seededRandom(11);
    for (let i = 0; i < 3; i++) await playHand(h, random);
    for (const [who, inbox] of h.inbox) {
      const [first, ...rest] = inbox;
      // subscribed before anything was broadcast: a private snapshot at 0
      expect(first).toMatchObject({ type: 'table-snapshot', seq: 0 });
      let last = 0;
      for (const m of rest) {
        if (m.type === 'legal-actions') {
          expect(m.seq, `${String(who)}: legal actions`).toBe(last);
          continue;
        }
        expect(m.seq, `${String(who)}: ${m.type}`).toBe(last + 1);
        last = m.seq;
      }
      expect(last).toBeGreaterThan(30);
    }
  });

  it('a late subscriber’s snapshot stands at the current number; applying only later messages counts each forced bet once', async () => {
    const h = harness({ game: 'holdem', structure: 'no-limit' }, { players: 3, seed: 4 });
    await sitAll(h, 200);
    await playHand(h, seededRandom(2));
    const late: TableMessage[] = [];
    h.table.subscribe(99, (m) => late.push(m));
    await h.table.idle();
    const snapshot = late[0]!;
    expect(snapshot.type).toBe('table-snapshot');
    const spectator = h.inbox.get('spectator')!;
    const broadcasts = spectator.filter((m) => m.type !== 'legal-actions');
    expect(snapshot.seq).toBe(broadcasts.at(-1)!.seq);
    // the next hand: a client applying the stream from its snapshot on sees each post once
    await playHand(h, seededRandom(5));
    let number = snapshot.seq;
    let posted = 0;
    let handStart: TableMessage | undefined;
    for (const m of late.slice(1)) {
      if (m.type === 'table-snapshot') {
        number = m.seq;
        handStart ??= m.view.hand !== null ? m : undefined;
        continue;
      }
      if (m.type === 'legal-actions' || m.seq <= number) continue;
      number = m.seq;
      if (m.type === 'table-event' && m.event.type === 'post' && handStart !== undefined) posted++;
    }
    // the snapshot that shows the hand stands after its posts: no post is applied on top of it
    expect(handStart).toBeDefined();
    expect(posted).toBe(0);
  });
});
