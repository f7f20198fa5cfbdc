import { describe, expect, it } from 'vitest';
import { runFelt } from './run-felt.js';

describe('felt bots (arguments)', () => {
  it('a think spread outside 0–1 is refused with the usage, before any connection', () => {
    for (const spread of ['1.5', '-0.1', 'x']) {
      const run = runFelt(['bots', '--url', 'ws://127.0.0.1:1', '--bots', '1', '--think-spread', spread]);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/--think-spread/);
      expect(run.stdout).toBe('');
    }
  });
});
