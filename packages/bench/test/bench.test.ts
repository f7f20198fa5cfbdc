import { describe, expect, it } from 'vitest';
import { GROUPS, PEER_NAMES, runBench } from '@felt/bench';

describe('felt bench --json --only eval', () => {
  it('prints one JSON row a line, with figures for Felt and every peer and their disagreements', async () => {
    const lines: string[] = [];
    await runBench({ json: true, only: 'eval', out: (line) => lines.push(line), samples: 40, batchMs: 2 });
    const rows = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows.map((row) => row.name)).toEqual(['eval7', 'omaha', 'omaha5', 'showdown6']);
    for (const row of rows) {
      expect(Object.keys(row)).toEqual(['name', 'unit', 'felt', 'peers', 'disagreements']);
      expect(row.unit).toMatch(/\/s$/);
      expect(row.felt).toBeGreaterThan(0);
      const peers = row.peers as Record<string, unknown>;
      const disagreements = row.disagreements as Record<string, unknown>;
      expect(Object.keys(peers).sort()).toEqual([...PEER_NAMES].sort());
      for (const peer of PEER_NAMES) {
        expect(peers[peer]).toBeGreaterThan(0);
        expect(disagreements[peer]).toEqual(expect.any(Number));
      }
    }
  });

  it('refuses an unknown group and names the known ones', async () => {
    await expect(runBench({ json: true, only: 'nope', out: () => undefined })).rejects.toThrow(
      new RegExp(`the groups are ${GROUPS.map((group) => group.name).join(', ')}$`),
    );
  });
});
