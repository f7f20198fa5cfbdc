/**
 * fair-deal-us: microseconds of the fair-dealing scheme per hand (docs/fairness.md): the commitment,
 * six players' contribution hashes and the whole deck's order derived from the HMAC stream, which is
 * more than a hand ever takes from it. What the room adds per hand when it deals by the scheme.
 */
import {
  deckOrder,
  fairDeal,
  randomBelow,
  seededRandom,
  type Contribution,
  type FairHand,
} from '@felt/engine';
import { medianRate } from './measure.js';
import type { BenchGroup } from './registry.js';

const PLAYERS = 6;
const SEED = 22;

export const fairGroup: BenchGroup = {
  name: 'fair',
  // eslint-disable-next-line @typescript-eslint/require-await -- measured in this process: nothing to wait for
  async *rows({ samples, batchMs }) {
    const random = seededRandom(SEED);
    const bytes = (): Uint8Array => Uint8Array.from({ length: 32 }, () => randomBelow(random, 256));
    const count = Math.max(1, Math.min(samples, 1000));
    const hands: { hand: FairHand; contributions: Contribution[] }[] = Array.from(
      { length: count },
      (_, i) => ({
        hand: { table: 'bench', hand: i + 1, previous: bytes(), secret: bytes() },
        contributions: Array.from({ length: PLAYERS }, (_, seat) => ({ seat, bytes: bytes() })),
      }),
    );
    const rate = medianRate(
      (from, to) => {
        for (let i = from; i < to; i++) {
          const { hand, contributions } = hands[i]!;
          const deal = fairDeal(hand, contributions);
          if (!deal.ok) throw new Error(deal.error.message);
          deckOrder('standard52', deal.value.random());
        }
      },
      count,
      batchMs,
    );
    yield { name: 'fair-deal-us', unit: 'µs', felt: Math.round(1e7 / rate) / 10, peers: {} };
  },
};
