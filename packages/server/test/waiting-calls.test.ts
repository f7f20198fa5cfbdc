import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WaitingCalls } from '../src/waiting-calls.js';

describe('calls waiting for their answers (storage thread, bots client)', () => {
  it('the ring is a power of two in size, or refused', () => {
    for (const capacity of [0, 3, 6, 2.5, -4]) expect(() => new WaitingCalls(capacity)).toThrow(RangeError);
    expect(() => new WaitingCalls(8)).not.toThrow();
  });

  it('each answer finds its own call once, whatever the order and however many wait (property)', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('call' as const), count: fc.integer({ min: 1, max: 700 }) }),
      fc.record({ kind: fc.constant('answer' as const), back: fc.nat(1_000) }),
      fc.record({ kind: fc.constant('answer-unknown' as const), id: fc.integer({ min: -5, max: 100_000 }) }),
    );
    fc.assert(
      fc.property(fc.constantFrom(1, 4, 256), fc.array(op, { maxLength: 80 }), (capacity, ops) => {
        const calls = new WaitingCalls<{ id: number; resolve: () => void }>(capacity);
        const model = new Map<number, string>();
        const answered: string[] = [];
        let nextId = 1;
        const pending = (id: number, tag: string) => ({
          id,
          resolve: () => answered.push(tag),
        });
        for (const o of ops) {
          if (o.kind === 'call') {
            for (let i = 0; i < o.count; i++, nextId++) {
              calls.add(pending(nextId, `call ${nextId}`));
              model.set(nextId, `call ${nextId}`);
            }
          } else {
            const waiting = [...model.keys()];
            const id = o.kind === 'answer' ? (waiting[o.back % Math.max(1, waiting.length)] ?? 0) : o.id;
            const call = calls.take(id);
            expect(call?.id).toBe(model.has(id) ? id : undefined);
            call?.resolve();
            if (call !== undefined) expect(answered.pop()).toBe(model.get(id));
            model.delete(id);
          }
        }
        const left = calls.takeAll();
        expect(left.map((call) => call.id)).toEqual([...model.keys()]);
        expect(calls.takeAll()).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
