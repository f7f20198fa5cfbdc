import { shortHex } from '../fair';
import type { FairHandView } from '@felt/protocol';
import type { TableView } from '../net/views';
import type { TableModel } from '../state/table';

/**
 * The hand's place in the table's fair-dealing chain, from its first message: its commitment (published
 * a hand ahead), the contributions listed, and whether the viewer's own is among them; and the next
 * hand's commitment, with the viewer's contribution to it once the server has it.
 */
export function FairDeal({ table, view }: { table: TableModel; view: TableView }) {
  const hand = view.hand ?? table.lastHand;
  const next = view.fair;
  if (hand === null && next === null) return null;
  return (
    <div className="panel fair" aria-labelledby={`fair-${view.tableId}`} data-testid="fair-deal">
      <h3 id={`fair-${view.tableId}`}>Fair deal</h3>
      {hand === null ? null : (
        <HandFair number={hand.number} fair={hand.fair} own={table.contributed[hand.fair.hand]} />
      )}
      {next === null ? null : (
        <p className="meta" data-testid="fair-next">
          Next hand: commitment <code title={next.commitment}>{shortHex(next.commitment)}</code>
          {table.contributed[next.hand] === undefined ? null : ' · your contribution sent'}
        </p>
      )}
    </div>
  );
}

function HandFair({ number, fair, own }: { number: number; fair: FairHandView; own: string | undefined }) {
  const used = own !== undefined && fair.contributions.some((c) => c.hash === own);
  return (
    <>
      <p className="meta">
        Hand #{number} commitment{' '}
        <code title={fair.commitment} data-testid="fair-commitment">
          {shortHex(fair.commitment)}
        </code>
      </p>
      <p className="meta" data-testid="fair-contributions">
        {fair.contributions.length} contribution{fair.contributions.length === 1 ? '' : 's'} listed
        {own === undefined ? null : used ? (
          <>
            {' '}
            · yours used <code title={own}>{shortHex(own)}</code>
          </>
        ) : (
          <> · yours is not listed</>
        )}
      </p>
    </>
  );
}
