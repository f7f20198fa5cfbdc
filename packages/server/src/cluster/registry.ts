/**
 * The cluster's rows in PostgreSQL: its members and the tables' leases (migration "cluster members and
 * table leases"). Every time here is the database's clock (`clock_timestamp()`), never a process's:
 * the processes' clocks may differ, and a paused process's clock is no judge of what it missed.
 *
 * - A member is one start of `felt serve --bus …`: a new row, a new id, whatever its label (`--node`).
 *   It is live while its heartbeat is younger than one lease period; one that missed that (killed,
 *   paused) never beats again under the same id — it must join again as a new member.
 * - A table is owned through its lease: the owner member, a fencing epoch that grows by one at every
 *   change of owner, and an expiry at most one lease period ahead, renewed by the owner. Another member
 *   may take the table only once the expiry has passed, and the take is one statement, so that two
 *   members racing for a table make one owner.
 */
import type { ClusterView } from '@felt/protocol';
import { intCol, intColOr, textCol, type SqlExecutor, type SqlRow } from '../storage/sql.js';
import type { PublicMemberKeys } from './bus-crypto.js';

export type { ClusterView };

export type MemberId = number;

/** A lease held: the table and the epoch every write for it carries. */
export interface Lease {
  readonly tableId: string;
  readonly epoch: number;
}

/**
 * What a lease is of: a table of the lobby, one tournament run, or the room's tournament schedule
 * (./tournaments.ts) — renewed, released and fenced alike; the view lists the tables' and the runs' apart.
 */
export type LeaseKind = 'table' | 'tournament' | 'tournaments';

/** A tournament run's lease: `#t:` and the run's id (no table id has a `#`). */
export const runLease = (tournamentId: string): string => `#t:${tournamentId}`;
const RUN_LEASE_PREFIX = runLease('');

/** `ms` as a PostgreSQL interval, from a bound parameter. */
const MS = "CAST(? AS INTEGER) * INTERVAL '1 millisecond'";
/** Milliseconds from a PostgreSQL interval expression, as an integer. */
const msOf = (interval: string): string => `CAST(EXTRACT(EPOCH FROM ${interval}) * 1000 AS BIGINT)`;
/** The database's clock in ms since the epoch. */
const NOW_MS = 'CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)';

export class ClusterRegistry {
  constructor(
    private readonly db: SqlExecutor,
    /** How long a lease (and a heartbeat) stays good without renewal; at most 4 s in the room. */
    readonly leaseMs: number,
  ) {
    if (db.dialect !== 'postgres') throw new Error('a cluster needs PostgreSQL');
  }

  /**
   * A new member: each start of a process is one, whatever its label. `keys` are the public keys its
   * bus messages prove themselves with (./bus-crypto.ts); `now` the database's clock, in ms.
   */
  async join(label: string, address: string, keys: PublicMemberKeys): Promise<{ id: MemberId; now: number }> {
    const row = await this.db.get(
      `INSERT INTO cluster_members (label, address, started_at, heartbeat_at, sign_key, box_key)
       VALUES (?, ?, clock_timestamp(), clock_timestamp(), ?, ?) RETURNING id, ${NOW_MS} AS now`,
      [label, address, keys.sign, keys.box],
    );
    return { id: intCol(row!, 'id'), now: intCol(row!, 'now') };
  }

  /**
   * The member's heartbeat: the database's clock (ms) when it beat; null when it is no member any more
   * (it missed a whole lease period, or left): then it holds nothing and must join again.
   */
  async heartbeat(member: MemberId): Promise<number | null> {
    const row = await this.db.get(
      `UPDATE cluster_members SET heartbeat_at = clock_timestamp()
        WHERE id = ? AND left_at IS NULL AND heartbeat_at > clock_timestamp() - ${MS}
       RETURNING ${NOW_MS} AS now`,
      [member, this.leaseMs],
    );
    return row === undefined ? null : intCol(row, 'now');
  }

  /** The public keys of `member` while it is live (./peers.ts), else null. */
  async liveMemberKeys(member: MemberId): Promise<PublicMemberKeys | null> {
    const row = await this.db.get(
      `SELECT sign_key, box_key FROM cluster_members
        WHERE id = ? AND left_at IS NULL AND heartbeat_at > clock_timestamp() - ${MS}`,
      [member, this.leaseMs],
    );
    const sign = row?.['sign_key'];
    const box = row?.['box_key'];
    return typeof sign === 'string' && typeof box === 'string' ? { sign, box } : null;
  }

  /** The member leaves: its leases run out now, so that others take its tables at once. */
  async leave(member: MemberId): Promise<void> {
    await this.db.run('UPDATE table_leases SET expires_at = clock_timestamp() WHERE member_id = ?', [member]);
    await this.db.run('UPDATE cluster_members SET left_at = clock_timestamp() WHERE id = ?', [member]);
  }

  /** The member is stopping (SIGTERM): no other member stopping hands its hands in play over to it. */
  async markLeaving(member: MemberId): Promise<void> {
    await this.db.run('UPDATE cluster_members SET leaving_at = clock_timestamp() WHERE id = ?', [member]);
  }

  /** Members whose heartbeat is younger than a lease period; `staying`: of those, none stopping. */
  async liveMembers(staying = false): Promise<MemberId[]> {
    const rows = await this.db.all(
      `SELECT id FROM cluster_members
        WHERE left_at IS NULL AND heartbeat_at > clock_timestamp() - ${MS}
          ${staying ? 'AND leaving_at IS NULL' : ''} ORDER BY id`,
      [this.leaseMs],
    );
    return rows.map((row) => intCol(row, 'id'));
  }

  /**
   * Takes the table if nobody holds a lease on it that has not run out: its epoch, one more than the
   * last owner's; null when another member holds it. One statement, so of members racing one wins.
   */
  async acquire(member: MemberId, tableId: string, kind: LeaseKind = 'table'): Promise<Lease | null> {
    const row = await this.db.get(
      `INSERT INTO table_leases (table_id, member_id, epoch, acquired_at, expires_at, kind)
       SELECT ?, ?, 1, clock_timestamp(), clock_timestamp() + ${MS}, ?
        WHERE NOT EXISTS (SELECT 1 FROM closed_tables WHERE table_id = ?)
       ON CONFLICT (table_id) DO UPDATE
          SET member_id = excluded.member_id, epoch = table_leases.epoch + 1,
              acquired_at = excluded.acquired_at, expires_at = excluded.expires_at
        WHERE table_leases.expires_at <= clock_timestamp()
       RETURNING epoch`,
      [tableId, member, this.leaseMs, kind, tableId],
    );
    return row === undefined ? null : { tableId, epoch: intCol(row, 'epoch') };
  }

  /** The staff closed the table: its lease runs out now, and nobody takes it again. */
  async close(tableId: string): Promise<void> {
    // Closed first: from then on no member takes the lease, so letting it run out hands it to nobody.
    await this.db.run(
      'INSERT INTO closed_tables (table_id, closed_at) VALUES (?, clock_timestamp()) ON CONFLICT (table_id) DO NOTHING',
      [tableId],
    );
    await this.db.run('UPDATE table_leases SET expires_at = clock_timestamp() WHERE table_id = ?', [tableId]);
  }

  /** The tables the staff closed. */
  async closedTables(): Promise<Set<string>> {
    const rows = await this.db.all('SELECT table_id FROM closed_tables');
    return new Set(rows.map((row) => textCol(row, 'table_id')));
  }

  /**
   * Renews every lease of the member that has not run out; returns those it still holds. A lease that
   * ran out is not renewed even if nobody took it: its table may be recovered by another member at any
   * moment, so the member must take it again (a new epoch) rather than go on.
   */
  async renew(member: MemberId): Promise<Lease[]> {
    const rows = await this.db.all(
      `UPDATE table_leases SET expires_at = clock_timestamp() + ${MS}
        WHERE member_id = ? AND expires_at > clock_timestamp() RETURNING table_id, epoch`,
      [this.leaseMs, member],
    );
    return rows.map((row) => ({ tableId: textCol(row, 'table_id'), epoch: intCol(row, 'epoch') }));
  }

  /**
   * Gives a table up: its lease runs out now (the epoch names which lease, so a newer one is kept).
   * `inPlay`: its hand is still running, handed over to the next owner, who goes on with it from the
   * journal (./takeover.ts): the lease names itself as handed over in play. Its owner has stopped the
   * table's actor first, so that nothing more is written for it.
   */
  async release(member: MemberId, lease: Lease, inPlay = false): Promise<void> {
    await this.db.run(
      `UPDATE table_leases SET expires_at = clock_timestamp()${inPlay ? ', handed_over_epoch = epoch' : ''}
        WHERE table_id = ? AND member_id = ? AND epoch = ?`,
      [lease.tableId, member, lease.epoch],
    );
  }

  /** Who holds lease `id` (or held it last: `expiresInMs` ≤ 0 once it ran out); null when nobody ever did. */
  async holder(id: string): Promise<{ memberId: MemberId; epoch: number; expiresInMs: number } | null> {
    const row = await this.db.get(
      `SELECT member_id, epoch, ${msOf('expires_at - clock_timestamp()')} AS expires_in
         FROM table_leases WHERE table_id = ?`,
      [id],
    );
    return row === undefined
      ? null
      : {
          memberId: intCol(row, 'member_id'),
          epoch: intCol(row, 'epoch'),
          expiresInMs: intCol(row, 'expires_in'),
        };
  }

  /**
   * Members (those that have not left and beat in the last minute: the dead ones of long ago are
   * history) and leases, with their ages by the database's clock.
   */
  async view(): Promise<ClusterView> {
    const members = await this.db.all(
      `SELECT id, label, address, ${msOf('clock_timestamp() - heartbeat_at')} AS age
         FROM cluster_members
        WHERE left_at IS NULL AND heartbeat_at > clock_timestamp() - INTERVAL '1 minute' ORDER BY id`,
    );
    const leasesOf = (where: string) =>
      this.db.all(
        `SELECT table_id, member_id, epoch, ${msOf('clock_timestamp() - acquired_at')} AS age,
                ${msOf('expires_at - clock_timestamp()')} AS expires_in
           FROM table_leases WHERE ${where} ORDER BY table_id`,
      );
    const leases = await leasesOf("kind = 'table'");
    // The leases of runs ended long ago stay (their epochs), but are history.
    const runs = await leasesOf(
      "kind = 'tournament' AND expires_at > clock_timestamp() - INTERVAL '1 minute'",
    );
    const leaseOf = (row: SqlRow) => ({
      memberId: intCol(row, 'member_id'),
      epoch: intCol(row, 'epoch'),
      ageMs: intCol(row, 'age'),
      expiresInMs: intCol(row, 'expires_in'),
    });
    return {
      members: members.map((row) => ({
        id: intCol(row, 'id'),
        label: textCol(row, 'label'),
        address: textCol(row, 'address'),
        heartbeatAgeMs: intColOr(row, 'age', 0),
        live: intColOr(row, 'age', 0) < this.leaseMs,
      })),
      leases: leases.map((row) => ({ tableId: textCol(row, 'table_id'), ...leaseOf(row) })),
      runs: runs.map((row) => ({
        tournamentId: textCol(row, 'table_id').slice(RUN_LEASE_PREFIX.length),
        ...leaseOf(row),
      })),
    };
  }
}
