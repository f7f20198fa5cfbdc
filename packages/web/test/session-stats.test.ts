import type { HandListItem } from '@felt/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { durationText, sessionStats } from '../src/session-stats';

const hand = (
  handId: number,
  endedAt: number,
  net: number,
  currency: 'play' | 'real' = 'play',
): HandListItem => ({
  handId,
  tableId: 't',
  currency,
  description: 'x',
  startedAt: endedAt - 1000,
  endedAt,
  net,
});

describe('session statistics', () => {
  it('counts only the hands ended since he signed in, and adds play and real money apart', () => {
    const stats = sessionStats(
      [hand(1, 500, 999), hand(2, 1500, 250), hand(3, 2500, -100), hand(4, 3000, 40, 'real')],
      1000,
      61_000 + 1000,
    );
    expect(stats).toEqual({ hands: 3, net: { play: 150, real: 40 }, elapsedMs: 61_000 });
  });

  it('the session net is the sum of its hands, whatever their order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: -5000, max: 5000 }))),
        (list) => {
          const hands = list.map(([endedAt, net], i) => hand(i + 1, endedAt, net));
          const stats = sessionStats(hands, 5000, 10_000);
          const counted = list.filter(([endedAt]) => endedAt >= 5000);
          expect(stats.hands).toBe(counted.length);
          expect(stats.net.play ?? 0).toBe(counted.reduce((sum, [, net]) => sum + net, 0));
        },
      ),
    );
  });

  it('says how long in minutes and hours', () => {
    expect(durationText(59_999)).toBe('under a minute');
    expect(durationText(12 * 60_000)).toBe('12 min');
    expect(durationText(65 * 60_000)).toBe('1 h 05 min');
  });
});
