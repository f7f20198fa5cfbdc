/**
 * The console's game-security reports as the staff read them: each flagged finding names its players
 * (from → to for chip dumping), its p-value against its threshold, how many hands support it, and its
 * first hands as links; a report that flags nothing says so.
 */
import type { ClusterStatusView, IntegrityView } from '@felt/protocol';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../src/components/console/Cluster';
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

describe('the console’s cluster view', () => {
  const cluster: ClusterStatusView = {
    member: 7,
    label: 'web-1',
    tables: ['t1'],
    members: [
      { id: 7, label: 'web-1', address: '10.0.0.11:8080', heartbeatAgeMs: 400, live: true },
      { id: 9, label: 'web-2', address: '10.0.0.12:8080', heartbeatAgeMs: 6200, live: false },
    ],
    leases: [
      { tableId: 't1', memberId: 7, epoch: 3, ageMs: 61_000, expiresInMs: 3600 },
      { tableId: 't2', memberId: 9, epoch: 5, ageMs: 9000, expiresInMs: -2200 },
    ],
    runs: [
      {
        tournamentId: 'daily@2026-12-06T18:00:00.000Z',
        memberId: 9,
        epoch: 2,
        ageMs: 125_000,
        expiresInMs: -800,
      },
      {
        tournamentId: 'sng-9@2026-12-06T07:06:25.846Z',
        memberId: 7,
        epoch: 4,
        ageMs: 30_000,
        expiresInMs: 4100,
      },
    ],
  };

  it('each member with its heartbeat and the tables it holds; each lease with its owner, epoch and expiry', () => {
    const html = renderToStaticMarkup(createElement(Cluster, { cluster }));
    expect(html).toContain('1 live members; this is member 7 (web-1), running 1 tables');
    const rows = html.split('<tr>').slice(1);
    expect(rows.find((row) => row.includes('web-1'))).toMatch(
      /10\.0\.0\.11:8080.*0\.4 s ago.*<td>1<\/td><td>1<\/td>/,
    );
    // A member that missed its heartbeat is flagged, and his expired leases are not counted as held.
    expect(rows.find((row) => row.includes('10.0.0.12'))).toMatch(
      /not live.*6\.2 s ago.*<td>0<\/td><td>0<\/td>/,
    );
    expect(rows.find((row) => row.includes('>t1<'))).toMatch(/7 \(web-1\).*<td>3<\/td>.*61\.0 s.*3\.6 s/);
    expect(rows.find((row) => row.includes('>t2<'))).toMatch(/9 \(web-2\).*<td>5<\/td>.*9\.0 s.*expired/);
  });

  it('each tournament run with the member directing it, its epoch, how long held and when its lease runs out', () => {
    const html = renderToStaticMarkup(createElement(Cluster, { cluster }));
    const runs = html.slice(html.indexOf('Tournament runs'));
    expect(runs).toContain('data-testid="cluster-runs"');
    const rows = runs.split('<tr>').slice(1);
    expect(rows.find((row) => row.includes('>sng-9@2026-12-06T07:06:25.846Z<'))).toMatch(
      /7 \(web-1\).*<td>4<\/td>.*30\.0 s.*4\.1 s/,
    );
    expect(rows.find((row) => row.includes('>daily@2026-12-06T18:00:00.000Z<'))).toMatch(
      /9 \(web-2\).*<td>2<\/td>.*125\.0 s.*expired/,
    );
  });

  it('a cluster without tournament runs says so instead of an empty table', () => {
    const html = renderToStaticMarkup(createElement(Cluster, { cluster: { ...cluster, runs: [] } }));
    expect(html).toContain('No tournament run in play.');
    expect(html).not.toContain('cluster-runs');
  });
});
