import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  CLUSTER_NATS,
  CLUSTER_POSTGRES,
  GROUPS,
  PEER_NAMES,
  cpuShares,
  machineBusyTicks,
  processTicks,
  promSample,
  natsAnswers,
  runBench,
  runCluster,
  runRoom,
  runTournament,
  holdemTournament,
  mixedTournament,
} from '@felt/bench';
import { serviceReachable } from '../../server/test/services.js';

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

/** The machine's PostgreSQL server (the room bench makes and drops a database of its own there). */
const POSTGRES = process.env['FELT_TEST_POSTGRES'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Whether PostgreSQL answers: when it does not, CI (CI=true) fails and elsewhere its tests are skipped. */
const postgresReachable = (): Promise<boolean> =>
  serviceReachable(`PostgreSQL at ${POSTGRES}`, async () => {
    await benchDatabases();
  });

/** The names of the bench's databases on that server. */
async function benchDatabases(): Promise<string[]> {
  const client = new pg.Client({ connectionString: POSTGRES, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    const result = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'felt_bench_%' ORDER BY datname",
    );
    return result.rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}

const postgres = await postgresReachable();
/** The cluster group's services, at the addresses it names (it takes no flag). */
const clusterServices =
  postgres &&
  (await serviceReachable(`PostgreSQL at ${CLUSTER_POSTGRES}`, async () => {
    const client = new pg.Client({ connectionString: CLUSTER_POSTGRES, connectionTimeoutMillis: 3000 });
    await client.connect();
    await client.end();
  })) &&
  (await serviceReachable(`NATS at ${CLUSTER_NATS}`, () => natsAnswers(CLUSTER_NATS)));

describe('felt bench --only room', () => {
  it('counts a machine busy in every /proc/stat column but idle and I/O wait', () => {
    const stat = 'cpu  100 20 30 4000 500 6 7 8 0 0\ncpu0 50 10 15 2000 250 3 3 4 0 0\n';
    expect(machineBusyTicks(stat)).toBe(100 + 20 + 30 + 6 + 7 + 8);
  });

  it("reads a process's user and system ticks after its command name, whatever the name holds", () => {
    const stat = '4242 (node (felt) x) S 1 4242 4242 0 -1 4194560 900 0 0 0 1234 567 0 0 20 0 11 0';
    expect(processTicks(stat)).toBe(1234 + 567);
  });

  it('gives the server, the bots and the rest of the machine their share of a core, the bench itself left out', () => {
    const from = { at: 0, machine: 1000, server: 100, bots: 50, bench: 10 };
    const to = { at: 10_000, machine: 2350, server: 900, bots: 350, bench: 20 };
    expect(cpuShares(from, to)).toEqual({ server: 80, bots: 30, others: 24 });
  });

  it('reads a sample without labels from Prometheus’s text, and no other', () => {
    const text =
      '# HELP felt_hands_started_total Hands dealt.\n# TYPE felt_hands_started_total counter\n' +
      'felt_hands_started_total 42\nfelt_hands_started_total_extra 7\nfelt_errors_total{source="table"} 3\n';
    expect(promSample(text, 'felt_hands_started_total')).toBe(42);
    expect(promSample(text, 'felt_errors_total')).toBeNull();
    expect(promSample(text, 'felt_tables')).toBeNull();
  });

  it('plays a small room to the end: every bot seated, no error, every chip conserved, each share of the CPU; /metrics counts what the bots counted', async () => {
    const rows = await runRoom({ bots: 12, seconds: 3, thinkMs: 100, thinkSpread: 0.5, db: null });
    const figures = new Map(rows.map((row) => [row.name, row.felt]));
    expect(figures.get('room-tables')).toBe(2);
    expect(figures.get('room-bots')).toBe(12);
    expect(figures.get('room-actions')).toBeGreaterThan(0);
    expect(figures.get('room-errors')).toBe(0);
    expect(figures.get('room-conserved')).toBe(1);
    expect(figures.get('room-server-cpu')).toBeGreaterThan(0);
    expect(figures.get('room-bots-cpu')).toBeGreaterThan(0);
    expect(figures.get('room-others-cpu')).toBeGreaterThanOrEqual(0);
    // Over the same seconds, the server's /metrics and the bots count the same actions (acks of `act`:
    // a few in flight at each end at most) and the same hands (started there, finished here: at most
    // one a table apart at each end).
    const actions = figures.get('room-actions')!;
    expect(Math.abs(figures.get('room-metrics-actions')! - actions)).toBeLessThanOrEqual(actions * 0.1 + 2);
    expect(Math.abs(figures.get('room-metrics-hands')! - figures.get('room-hands')!)).toBeLessThanOrEqual(
      (2 * 2) / 3 + 0.1,
    );
    expect(figures.get('room-metrics-latency-mean')).toBeGreaterThan(0);
    expect(figures.get('room-postgres')).toBe(0);
  }, 120_000);

  it.runIf(postgres)(
    'FELT_ROOM_DB puts the room on PostgreSQL, in a database of its own that it drops: every bot seated, no error, every chip conserved',
    async () => {
      const before = await benchDatabases();
      const rows = await runRoom({ bots: 12, seconds: 3, thinkMs: 100, thinkSpread: 0.5, db: POSTGRES });
      const figures = new Map(rows.map((row) => [row.name, row.felt]));
      expect(figures.get('room-postgres')).toBe(1);
      expect(figures.get('room-bots')).toBe(12);
      expect(figures.get('room-actions')).toBeGreaterThan(0);
      expect(figures.get('room-errors')).toBe(0);
      expect(figures.get('room-conserved')).toBe(1);
      expect(await benchDatabases()).toEqual(before);
    },
    180_000,
  );
});

describe('felt bench --json --only tournament', () => {
  const suffixes = [
    'entrants',
    'wall-s',
    'hands',
    'moves',
    'levels',
    'latency-p99',
    'clock-taken',
    'errors',
    'conserved',
  ];

  it.each([
    ['tournament', holdemTournament(4)],
    ['tournament-mixed', mixedTournament(3)],
  ])(
    '%s: the rows the issue names, played to a winner, no error, no decision taken by the clock, every chip and cent conserved',
    async (prefix, def) => {
      const rows = await runTournament(prefix, def, 0);
      expect(rows.map((row) => row.name)).toEqual(suffixes.map((s) => `${prefix}-${s}`));
      const figures = new Map(rows.map((row) => [row.name, row.felt]));
      expect(figures.get(`${prefix}-entrants`)).toBe(def.maxEntrants);
      expect(figures.get(`${prefix}-hands`)).toBeGreaterThan(0);
      expect(figures.get(`${prefix}-levels`)).toBeGreaterThan(0);
      expect(figures.get(`${prefix}-errors`)).toBe(0);
      expect(figures.get(`${prefix}-clock-taken`)).toBe(0);
      expect(figures.get(`${prefix}-conserved`)).toBe(1);
    },
    300_000,
  );
});

describe('felt bench --json --only cluster', () => {
  it('refuses to run, at once and saying so, when NATS does not answer', async () => {
    await expect(natsAnswers('nats://127.0.0.1:1', 1000)).rejects.toThrow(
      /NATS at nats:\/\/127\.0\.0\.1:1 does not answer/,
    );
  });

  it.runIf(clusterServices)(
    'three processes and 30 bots, one process killed: the rows the issue names, every bot seated, its tables dealing again within 10 s, no error but actions for the hands it cancelled, every chip conserved, the database dropped',
    async () => {
      const before = await benchDatabases();
      const { rows, errorCodes } = await runCluster({ bots: 30, seconds: 15, thinkMs: 100 });
      expect(rows.map((row) => row.name)).toEqual([
        'cluster-processes',
        'cluster-bots',
        'cluster-actions',
        'cluster-latency-p50',
        'cluster-latency-p99',
        'cluster-failover-s',
        'cluster-errors',
        'cluster-conserved',
      ]);
      const figures = new Map(rows.map((row) => [row.name, row.felt]));
      expect(figures.get('cluster-processes')).toBe(3);
      expect(figures.get('cluster-bots')).toBe(30);
      expect(figures.get('cluster-actions')).toBeGreaterThan(0);
      expect(figures.get('cluster-latency-p50')).toBeGreaterThan(0);
      expect(figures.get('cluster-latency-p99')).toBeGreaterThanOrEqual(figures.get('cluster-latency-p50')!);
      expect(figures.get('cluster-failover-s')).toBeGreaterThan(0);
      expect(figures.get('cluster-failover-s')).toBeLessThan(10);
      // The only error answers: actions the bots sent for hands the takeover cancelled (through
      // processes the kill spared, to the owner that took the table); no request went unanswered.
      expect(Object.keys(errorCodes).filter((code) => code !== 'act:NO_SUCH_HAND')).toEqual([]);
      expect(figures.get('cluster-errors')).toBe(Object.values(errorCodes).reduce((sum, n) => sum + n, 0));
      expect(figures.get('cluster-conserved')).toBe(1);
      expect(await benchDatabases()).toEqual(before);
    },
    300_000,
  );
});
