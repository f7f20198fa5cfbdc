/**
 * Calls waiting for their answers, by id. Ids are consecutive and answered about in order, so a call
 * sits in slot `id mod capacity` of a ring that doubles when a slot is still taken.
 *
 * Why not a `Map`: with thousands of calls a second coming and going, it re-hashed its table again and
 * again, and each new table, held by the long-lived map, went to the old generation, whose collections
 * pause everything (docs/benchmarks.md, eighth session). Used by the storage thread's proxy and the
 * bots' protocol client.
 */
export class WaitingCalls<Call extends { readonly id: number }> {
  #slots: (Call | undefined)[];

  /** `capacity`: a power of two, the ring's first size. */
  constructor(capacity = 256) {
    if (!(Number.isInteger(capacity) && capacity > 0 && (capacity & (capacity - 1)) === 0))
      throw new RangeError(`a ring's capacity is a power of two, got ${capacity}`);
    this.#slots = new Array<Call | undefined>(capacity);
  }

  add(call: Call): void {
    while (this.#slots[call.id & (this.#slots.length - 1)] !== undefined) this.#grow();
    this.#slots[call.id & (this.#slots.length - 1)] = call;
  }

  /** Removes and returns the call `id`, if it is waiting. */
  take(id: number): Call | undefined {
    const slot = id & (this.#slots.length - 1);
    const call = this.#slots[slot];
    if (call?.id !== id) return undefined;
    this.#slots[slot] = undefined;
    return call;
  }

  /** Removes and returns every waiting call, in the order of their ids. */
  takeAll(): Call[] {
    const calls = this.#slots.filter((call) => call !== undefined).sort((a, b) => a.id - b.id);
    this.#slots.fill(undefined);
    return calls;
  }

  #grow(): void {
    const calls = this.takeAll();
    this.#slots = new Array<Call | undefined>(this.#slots.length * 2);
    for (const call of calls) this.add(call);
  }
}
