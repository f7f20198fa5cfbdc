import { formatMoney } from '../../format';
import { useStore } from '../../hooks';
import { Transactions, type TransactionsOf } from './Transactions';
import { useReport } from './use-report';

const PARTS = [
  ['accounts', 'Balances'],
  ['seats', 'At tables'],
  ['pots', 'In pots'],
  ['house', 'House (rake)'],
  ['prizePools', 'Prize pools'],
  ['external', 'Cashier and top-ups'],
  ['sum', 'Sum'],
] as const;

/**
 * The ledger's audit: conserved or not, and where not; the staff log's chain (as `felt admin audit`);
 * and its transactions with their postings.
 */
export function Ledger({ of, onHand }: { of: TransactionsOf | null; onHand: (id: number) => void }) {
  const store = useStore();
  const {
    value: audit,
    busy,
    run,
  } = useReport(async () => (await store.staff('staff-audit'))?.audit ?? null);
  return (
    <section aria-label="Ledger">
      <button type="button" className="primary" disabled={busy} onClick={run}>
        Run the audit
      </button>
      {audit === null ? null : (
        <article className="panel" data-testid="audit">
          <h3 data-testid="audit-verdict" className={audit.conserved ? 'ok' : 'error'}>
            {audit.conserved ? 'Conserved: no chip created or lost' : 'NOT conserved'}
          </h3>
          <p className="meta">
            {audit.transactions.toLocaleString('en-US')} transactions · {audit.handsInProgress} hands in
            progress · staff log {audit.staffLog.entries} entries,{' '}
            {audit.staffLog.intact
              ? 'chain intact'
              : `chain broken at entry ${String(audit.staffLog.brokenAt)}`}
          </p>
          <table className="lobby-table">
            <thead>
              <tr>
                <th>Money</th>
                {PARTS.map(([part, title]) => (
                  <th key={part}>{title}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {(['play', 'real'] as const).map((currency) => (
                <tr key={currency}>
                  <td>{currency}</td>
                  {PARTS.map(([part]) => (
                    <td key={part} className="num">
                      {formatMoney(audit.currencies[currency][part], currency)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {audit.problems.length === 0 ? null : (
            <ul className="error" data-testid="audit-problems">
              {audit.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          )}
        </article>
      )}
      <Transactions of={of} onHand={onHand} />
    </section>
  );
}
