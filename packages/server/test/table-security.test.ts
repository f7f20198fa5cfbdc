import { seededRandom, type Structure, type VariantId } from '@felt/engine';
import { describe, expect, it } from 'vitest';
import type { TableMessage } from '../src/table/index.js';
import { harness, playHand, sitAll } from './table-helpers.js';

const CARD = /^[2-9TJQKA][cdhs]$/;

/** Every string leaf of a message (card texts only ever appear as whole strings). */
function leaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) leaves(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) leaves(v, out);
  return out;
}

/** Cards a player saw as his own down cards, and every card made public, from his own messages. */
function cardsOf(messages: readonly TableMessage[], seat: number) {
  const own = new Set<string>();
  const ownDown = new Set<string>();
  const shown = new Set<string>();
  for (const m of messages) {
    if (m.type !== 'table-event') continue;
    const e = m.event;
    if ((e.type === 'deal-hole' || e.type === 'deal-draw') && e.seat === seat)
      e.cards.forEach((c, i) => {
        own.add(c);
        if (!(e.type === 'deal-hole' && e.up[i] === true)) ownDown.add(c);
      });
    if (e.type === 'show') for (const c of e.cards) shown.add(c);
    if (e.type === 'deal-hole') e.cards.forEach((c, i) => e.up[i] === true && shown.add(c));
  }
  return { own, ownDown, shown };
}

const GAMES: readonly [VariantId, Structure][] = [
  ['holdem', 'no-limit'],
  ['omaha-hilo', 'pot-limit'],
  ['stud', 'fixed-limit'],
  ['soko', 'spread-limit'],
  ['triple-draw-27', 'fixed-limit'],
  ['draw32', 'half-pot-limit'],
];

describe('viewFor: a spectator and an opponent never receive a hidden card', () => {
  for (const [game, structure] of GAMES) {
    it(`${game}: every byte to the spectator and to each opponent`, async () => {
      const h = harness({ game, structure }, { players: 4, seed: 11 });
      await sitAll(h, 200);
      const random = seededRandom(5);
      for (let n = 0; n < 6; n++) await playHand(h, random);
      const seats = new Map(
        h.table.view(null).seats.flatMap((s) => (s ? [[s.account, s.seat] as const] : [])),
      );
      const viewers: (number | 'spectator')[] = ['spectator', ...seats.keys()];
      const handOf = (m: TableMessage): number | null =>
        m.type === 'table-snapshot'
          ? (m.view.hand?.handId ?? null)
          : m.type === 'hand-summary'
            ? m.summary.handId
            : m.handId;
      const hands = new Set(
        h.inbox.get('spectator')!.flatMap((m) => (handOf(m) === null ? [] : [handOf(m)!])),
      );
      let checked = 0;
      for (const handId of hands) {
        const ofHand = (viewer: number | 'spectator') =>
          h.inbox.get(viewer)!.filter((m) => handOf(m) === handId);
        const all = new Map([...seats].map(([account, seat]) => [account, cardsOf(ofHand(account), seat)]));
        const publicCards = new Set([...all.values()].flatMap((c) => [...c.shown]));
        for (const viewer of viewers) {
          const forbidden = new Set<string>();
          for (const [account, cards] of all) {
            if (account === viewer) continue;
            for (const c of cards.ownDown) if (CARD.test(c) && !publicCards.has(c)) forbidden.add(c);
          }
          if (viewer !== 'spectator') for (const c of all.get(viewer)!.own) forbidden.delete(c);
          for (const message of ofHand(viewer)) {
            const json = JSON.parse(JSON.stringify(message)) as unknown;
            for (const leaf of leaves(json)) {
              if (forbidden.has(leaf))
                throw new Error(`${String(viewer)} received ${leaf} in ${JSON.stringify(message)}`);
            }
            checked++;
          }
        }
      }
      const all = new Map(
        [...seats].map(([account, seat]) => [account, cardsOf(h.inbox.get(account)!, seat)]),
      );
      expect(checked).toBeGreaterThan(100);
      // each player did get his own down cards; the spectator got none
      for (const cards of all.values()) expect([...cards.ownDown].some((c) => CARD.test(c))).toBe(true);
      for (const m of h.inbox.get('spectator')!) {
        if (m.type !== 'table-event' || m.event.type !== 'deal-hole') continue;
        const { cards, up } = m.event;
        cards.forEach((c, i) => {
          expect(up[i] === true ? c : '??').toBe(c);
        });
      }
      // legal actions go to the actor only
      expect(h.inbox.get('spectator')!.some((m) => m.type === 'legal-actions')).toBe(false);
    });
  }

  it('stored per-player histories hide the opponents down cards', async () => {
    const h = harness({ game: 'holdem', structure: 'fixed-limit' }, { players: 3, seed: 2 });
    await sitAll(h, 200);
    await playHand(h, seededRandom(9));
    const settlement = [...h.storage.settled.values()][0]!;
    const full = settlement.history.phh;
    const view = settlement.history.views[0]!.phh;
    expect(full).not.toContain('????');
    expect(view).toContain('????');
  });
});
