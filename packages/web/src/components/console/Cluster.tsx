import type { ClusterStatusView } from '@felt/protocol';

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** A lease as the console lists it: a table's or a tournament run's. */
interface LeaseRow {
  readonly id: string;
  readonly memberId: number;
  readonly epoch: number;
  readonly ageMs: number;
  readonly expiresInMs: number;
}

/** Leases with their holder (by label), fencing epoch, how long held, how long until they run out. */
function Leases({
  rows,
  named,
  holder,
  labelOf,
  testId,
}: {
  readonly rows: readonly LeaseRow[];
  /** The heading of the leased thing's column. */
  readonly named: string;
  readonly holder: string;
  readonly labelOf: ReadonlyMap<number, string>;
  readonly testId: string;
}) {
  return (
    <table className="lobby-table" data-testid={testId}>
      <thead>
        <tr>
          <th>{named}</th>
          <th>{holder}</th>
          <th>Epoch</th>
          <th>Held for</th>
          <th>Runs out in</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((lease) => (
          <tr key={lease.id}>
            <td>{lease.id}</td>
            <td>
              {lease.memberId} ({labelOf.get(lease.memberId) ?? 'gone'})
            </td>
            <td>{lease.epoch}</td>
            <td>{seconds(lease.ageMs)}</td>
            <td>
              {lease.expiresInMs > 0 ? (
                seconds(lease.expiresInMs)
              ) : (
                <span className="badge danger">expired</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The cluster as the process the console is connected to sees it (docs/deploy.md): its members with
 * their heartbeats and how many tables and tournament runs each holds, every table's lease, and every
 * tournament run's lease (the member directing it).
 */
export function Cluster({ cluster }: { readonly cluster: ClusterStatusView }) {
  const labelOf = new Map(cluster.members.map((member) => [member.id, member.label]));
  const held = (leases: readonly LeaseRow[], id: number) =>
    leases.filter((lease) => lease.memberId === id && lease.expiresInMs > 0).length;
  const tables = cluster.leases.map((lease) => ({ ...lease, id: lease.tableId }));
  const runs = cluster.runs.map((lease) => ({ ...lease, id: lease.tournamentId }));
  return (
    <section aria-label="Cluster">
      <h4>
        Cluster: {cluster.members.filter((member) => member.live).length} live members; this is member{' '}
        {cluster.member} ({cluster.label}), running {cluster.tables.length} tables
      </h4>
      <table className="lobby-table" data-testid="cluster-members">
        <thead>
          <tr>
            <th>Member</th>
            <th>Name</th>
            <th>Address</th>
            <th>Heartbeat</th>
            <th>Tables</th>
            <th>Runs</th>
          </tr>
        </thead>
        <tbody>
          {cluster.members.map((member) => (
            <tr key={member.id}>
              <td>
                {member.id}
                {member.live ? null : <span className="badge danger">not live</span>}
              </td>
              <td>{member.label}</td>
              <td>{member.address}</td>
              <td>{seconds(member.heartbeatAgeMs)} ago</td>
              <td>{held(tables, member.id)}</td>
              <td>{held(runs, member.id)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Leases rows={tables} named="Table" holder="Owner" labelOf={labelOf} testId="cluster-leases" />
      <h4>Tournament runs</h4>
      {runs.length === 0 ? (
        <p className="meta">No tournament run in play.</p>
      ) : (
        <Leases rows={runs} named="Run" holder="Directed by" labelOf={labelOf} testId="cluster-runs" />
      )}
    </section>
  );
}
