import { randomFillSync } from 'node:crypto';
import type { RandomSource } from '@felt/engine';

/** The production random source: node:crypto, read 1,024 words at a time. */
export function cryptoRandom(): RandomSource {
  const buffer = new Uint32Array(1024);
  let next = buffer.length;
  return {
    nextUint32() {
      if (next === buffer.length) {
        randomFillSync(buffer);
        next = 0;
      }
      return buffer[next++]!;
    },
  };
}
