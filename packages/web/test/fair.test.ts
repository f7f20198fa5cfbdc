/**
 * Provably fair dealing in the client (docs/fairness.md, docs/web.md): the player's own contribution
 * (32 bytes of the browser's cryptographic source, naming the commitment, once a hand), the hand's
 * commitment and "yours used" on the table, and the Verify view's checks — run by the engine's
 * verifier on simulated hands, untouched and tampered.
 */
import { FAIR_FIELDS, simulatePhh, writePhh, type PhhHand } from '@felt/engine';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { App } from '../src/components/App';
import { randomContribution } from '../src/fair';
import { checkHand } from '../src/fair-check';
import { StoreContext } from '../src/hooks';
import { Store } from '../src/state/store';
import { FakeNetwork, flush } from './fake-socket';
import { FAIR_HAND, holdemView } from './fixtures';

const alice = { account: { id: 1, name: 'alice' }, balances: { play: 100_000, real: 0 } };
const NEXT = { hand: 2, commitment: 'ab'.repeat(32) };

async function seatedAt(view: ReturnType<typeof holdemView>) {
  const network = new FakeNetwork();
  const http = () => Promise.resolve({ status: 200, body: alice });
  const store = new Store({ urls: ['ws://room/ws'], socket: network.factory, http });
  network.last.open();
  network.last.ack('resume', { ...alice, tables: [view.tableId] });
  await flush();
  const socket = network.last;
  socket.receive({ op: 'table-snapshot', tableId: view.tableId, seq: 3, view });
  return { store, socket };
}

const contributionsSent = (socket: { sent: Record<string, unknown>[] }) =>
  socket.sent.filter((frame) => frame['op'] === 'fair-contribute');

describe('the client contributes to each hand by itself', () => {
  it('a contribution is 64 hex digits of fresh randomness', () => {
    const a = randomContribution();
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(randomContribution()).not.toBe(a);
  });

  it('seated, it sends 32 random bytes naming the next hand’s commitment, once per commitment', async () => {
    const view = { ...holdemView(), fair: NEXT };
    const { socket } = await seatedAt(view);
    const [sent] = contributionsSent(socket);
    expect(sent).toMatchObject({ tableId: view.tableId, commitment: NEXT.commitment });
    expect(sent!['bytes']).toMatch(/^[0-9a-f]{64}$/);
    // The same commitment again (a later view of the same hand): nothing more is sent.
    socket.receive({ op: 'table-snapshot', tableId: view.tableId, seq: 4, view });
    expect(contributionsSent(socket)).toHaveLength(1);
    // The next hand's commitment: a new contribution, with new bytes.
    const later = { ...view, fair: { hand: 3, commitment: 'cd'.repeat(32) } };
    socket.receive({ op: 'table-snapshot', tableId: view.tableId, seq: 5, view: later });
    const both = contributionsSent(socket);
    expect(both).toHaveLength(2);
    expect(both[1]!['bytes']).not.toBe(sent!['bytes']);
  });

  it('a spectator contributes nothing', async () => {
    const { socket } = await seatedAt({ ...holdemView(), you: null, fair: NEXT });
    expect(contributionsSent(socket)).toEqual([]);
  });

  it('the table shows the hand’s commitment, and the player’s own contribution as used once the hand lists its hash', async () => {
    const view = { ...holdemView(), fair: NEXT };
    const { store, socket } = await seatedAt(view);
    const hash = 'ef'.repeat(32);
    socket.ack('fair-contribute', { hand: 2, seat: 0, hash });
    await flush();
    const render = () =>
      renderToStaticMarkup(createElement(StoreContext, { value: store }, createElement(App)));
    expect(render()).toContain(`Hand #1 commitment`);
    expect(render()).toContain(FAIR_HAND.commitment.slice(0, 16));
    // Hand 2 starts listing the hash: "yours used".
    const hand2 = holdemView({
      handId: 8,
      number: 2,
      fair: { ...FAIR_HAND, hand: 2, commitment: NEXT.commitment, contributions: [{ seat: 0, hash }] },
    });
    socket.receive({ op: 'table-snapshot', tableId: view.tableId, seq: 9, view: hand2 });
    expect(render()).toContain('1 contribution listed · yours used');
    // A hand that leaves it out says so.
    const left = holdemView({
      handId: 8,
      number: 2,
      fair: { ...FAIR_HAND, hand: 2, commitment: NEXT.commitment, contributions: [] },
    });
    socket.receive({ op: 'table-snapshot', tableId: view.tableId, seq: 10, view: left });
    expect(render()).toContain('yours is not listed');
  });
});

/**
 * A simulated hand, named as the room names its hands' players: `seats` the table seats from 1, the
 * scheme's seats from 0 (the simulation's contributions come from scheme seats 1 … 3).
 */
function simulatedHand(): PhhHand {
  const result = simulatePhh({ variant: 'NT', players: 3, hands: 1, seed: 11 });
  if (!result.ok) throw new Error(result.error.message);
  const hand = result.value[0]!;
  return { ...hand, extra: { ...hand.extra, players: ['ann', 'bea', 'cid'], seats: [2, 3, 4] } };
}

describe('the Verify view checks a hand with the engine’s verifier', () => {
  it('an untouched hand: every check passed, the player’s own contribution named', async () => {
    const hand = simulatedHand();
    const check = await checkHand(writePhh(hand), 'bea');
    expect(check.kind === 'checked' && check.ok).toBe(true);
    if (check.kind !== 'checked') return;
    expect(check.lines.map((line) => [line.name, line.status])).toEqual([
      ['chain', 'passed'],
      ['commitment', 'passed'],
      ['contributions', 'passed'],
      ['cards', 'passed'],
    ]);
    expect(check.lines[2]!.text).toBe('3 contributions give their listed hashes; yours (seat 3) was used');
    expect(check.lines[3]!.text).toMatch(
      /^each of the \d+ cards dealt that this history shows is the committed deck's card/,
    );
  });

  it('a changed card fails the cards; a changed secret fails the commitment and skips what follows', async () => {
    const hand = simulatedHand();
    const first = hand.actions.findIndex((action) => action.kind === 'deal-hole');
    const dealt = hand.actions[first]!;
    if (dealt.kind !== 'deal-hole') throw new Error('no hole cards');
    const swapped = { ...dealt, cards: [...dealt.cards].reverse() };
    const card = await checkHand(
      writePhh({ ...hand, actions: hand.actions.map((a, i) => (i === first ? swapped : a)) }),
      null,
    );
    expect(card.kind === 'checked' && card.lines.map((line) => line.status)).toEqual([
      'passed',
      'passed',
      'passed',
      'failed',
    ]);
    const secret = hand.extra[FAIR_FIELDS.secret] as string;
    const changed = {
      ...hand.extra,
      [FAIR_FIELDS.secret]: (secret.startsWith('0') ? '1' : '0') + secret.slice(1),
    };
    const commitment = await checkHand(writePhh({ ...hand, extra: changed }), null);
    expect(commitment.kind === 'checked' && !commitment.ok).toBe(true);
    expect(commitment.kind === 'checked' && commitment.lines.map((line) => line.status)).toEqual([
      'passed',
      'failed',
      'skipped',
      'skipped',
    ]);
  });

  it('a history without the secret yet says it is not revealed, with its commitment', async () => {
    const hand = simulatedHand();
    const extra = Object.fromEntries(
      Object.entries(hand.extra).filter(
        ([key]) => key !== FAIR_FIELDS.secret && key !== FAIR_FIELDS.contributions,
      ),
    );
    const check = await checkHand(writePhh({ ...hand, extra }), null);
    expect(check).toEqual({ kind: 'not-revealed', commitment: hand.extra[FAIR_FIELDS.commitment] });
  });
});
