import type { ClusterStatusView } from '@felt/protocol';

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/**
 * The cluster as the process the console is connected to sees it (docs/deploy.md): its members with
 * their heartbeats and how many tables each runs, and every table's lease — owner, fencing epoch, how
 * long held, how long until it runs out unless renewed.
 */
export function Cluster({ cluster }: { readonly cluster: ClusterStatusView }) {
  const labelOf = new Map(cluster.members.map((member) => [member.id, member.label]));
  const owned = (id: number) =>
    cluster.leases.filter((lease) => lease.memberId === id && lease.expiresInMs > 0).length;
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
              <td>{owned(member.id)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="lobby-table" data-testid="cluster-leases">
        <thead>
          <tr>
            <th>Table</th>
            <th>Owner</th>
            <th>Epoch</th>
            <th>Held for</th>
            <th>Runs out in</th>
          </tr>
        </thead>
        <tbody>
          {cluster.leases.map((lease) => (
            <tr key={lease.tableId}>
              <td>{lease.tableId}</td>
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
    </section>
  );
}
