/**
 * The console's game-security reports as the staff read them: each flagged finding names its players
 * (from → to for chip dumping), its p-value against its threshold, how many hands support it, and its
 * first hands as links; a report that flags nothing says so.
 */
import type { IntegrityView } from '@felt/protocol';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Reports } from '../src/components/console/Security';

const report: IntegrityView = {
  alpha: 0.01,
  hands: 20_112,
  unreadable: 0,
  players: 30,
  seating: [],
  chipDumping: [
    {
      players: [
        { id: 4, name: 'dumper' },
        { id: 22, name: 'partner' },
      ],
      from: 4,
      to: 22,
      netFlow: 1004,
      z: 7.262,
      pValue: 1.9e-13,
      threshold: 1.6e-5,
      hands: Array.from({ length: 15 }, (_, i) => 100 + i),
      handCount: 63,
    },
  ],
  softPlay: [],
  winRate: [],
};

describe('the console’s game-security reports', () => {
  it('a finding shows its players, p-value, threshold, hand count and its first twelve hands as links', () => {
    const html = renderToStaticMarkup(createElement(Reports, { report, onHand: () => undefined }));
    expect(html).toContain('20,112 hands of 30 players read');
    expect(html).toContain('Chip flow without showdown (chip dumping): 1 flagged');
    expect(html).toContain('<b>dumper → partner</b> p = 1.9e-13 (threshold 1.6e-5), 63 hands:');
    expect(html.match(/>#1\d\d</g)).toEqual(Array.from({ length: 12 }, (_, i) => `>#${100 + i}<`));
    expect(html).toContain(' …');
    expect(html).toContain('Seated together more than chance: nothing flagged');
    expect(html.match(/<ul>/g)).toHaveLength(1);
  });
});
