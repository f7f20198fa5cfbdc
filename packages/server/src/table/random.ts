/** The production random source for dealing: node:crypto, read 1,024 words at a time. */
import { randomFillSync } from 'node:crypto';
import type { RandomSource } from '@felt/engine';

export function cryptoRandomSource(): RandomSource {
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
