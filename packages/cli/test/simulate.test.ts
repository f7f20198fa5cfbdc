import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePhhs } from '@felt/engine';
import { describe, expect, it } from 'vitest';
import { FELT, runFelt } from './run-felt.js';

const dir = mkdtempSync(path.join(tmpdir(), 'felt-simulate-'));

describe('felt simulate (the command-line contract)', () => {
  it('writes deterministic PHH hands that felt replay gives back the same finishing stacks for', () => {
    for (const variant of ['FO/8', 'F2L3D']) {
      const out = path.join(dir, `${variant.replace('/', '_')}.phhs`);
      const args = [
        'simulate',
        '--variant',
        variant,
        '--players',
        '4',
        '--hands',
        '6',
        '--seed',
        '5',
        '--out',
        out,
      ];
      const run = runFelt(args);
      expect(run.status, run.stderr).toBe(0);
      const text = readFileSync(out, 'utf8');
      expect(runFelt(args).status).toBe(0);
      expect(readFileSync(out, 'utf8')).toBe(text);
      const hands = parsePhhs(text);
      if (!hands.ok) throw new Error(hands.error.message);
      const written = hands.value.map((hand) => (hand.ok ? hand.value.finishingStacks : null));
      const replay = runFelt(['replay', out]);
      expect(replay.status, replay.stdout).toBe(0);
      expect(replay.json.map((line) => (line as { finishing_stacks: number[] }).finishing_stacks)).toEqual(
        written,
      );
    }
  });

  it('writes, byte for byte, the seed-91 stud file PokerKit checked (packages/engine/test/data/pokerkit)', () => {
    const fixture = path.join(
      path.dirname(fileURLToPath(import.meta.url)),
      '..',
      '..',
      'engine',
      'test',
      'data',
      'pokerkit',
      'F7S.phhs',
    );
    const args = ['simulate', '--variant', 'F7S', '--players', '6', '--hands', '150', '--seed', '91'];
    const run = spawnSync(process.execPath, [FELT, ...args, '--out', '-'], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout === readFileSync(fixture, 'utf8')).toBe(true);
  });

  it('writes to standard output with --out -', () => {
    const args = [
      'simulate',
      '--variant',
      'NT',
      '--players',
      '2',
      '--hands',
      '2',
      '--seed',
      '1',
      '--out',
      '-',
    ];
    const run = spawnSync(process.execPath, [FELT, ...args], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^\[1\]\nvariant = "NT"/);
  });

  it('refuses bad arguments with status 2', () => {
    expect(runFelt(['simulate', '--variant', 'NT']).status).toBe(2);
    expect(
      runFelt(['simulate', '--variant', 'XX', '--players', '2', '--hands', '1', '--seed', '1', '--out', '-'])
        .status,
    ).toBe(2);
    expect(
      runFelt(['simulate', '--variant', 'NT', '--players', '11', '--hands', '1', '--seed', '1', '--out', '-'])
        .status,
    ).toBe(2);
    expect(
      runFelt(['simulate', '--variant', 'NT', '--players', 'two', '--hands', '1', '--out', '-']).status,
    ).toBe(2);
  });
});
