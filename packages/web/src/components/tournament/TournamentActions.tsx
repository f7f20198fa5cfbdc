import { useState } from 'react';
import type { TournamentDetail } from '@felt/protocol';
import { formatMoney } from '../../format';
import { useAppState, useNow, useStore } from '../../hooks';
import type { TournamentActOp } from '../../state/store';
import { clockText, formatChips, offersOf } from '../../tournament';

/**
 * What he may do in a tournament he plays, beside its table: the rebuy, add-on or re-entry sold to him
 * now (its price and chips), and at the final table a deal (ICM or chip chop) to propose, or the one
 * proposed with every player's prize to accept or decline. The server decides; its refusal is shown.
 */
export function TournamentActions({
  detail,
  tournamentId,
}: {
  detail: TournamentDetail;
  tournamentId: string;
}) {
  const store = useStore();
  const account = useAppState().session?.account.id ?? null;
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const deal = detail.deal;
  const now = useNow(deal?.expiresAt != null, 1000);
  const act = async (op: TournamentActOp, fields: Record<string, unknown> = {}) => {
    setBusy(true);
    setRefusal(await store.tournamentAct(tournamentId, op, fields));
    setBusy(false);
  };
  const offers = offersOf(detail, account);
  const me = detail.players.find((p) => p.account === account);
  const finalTable = detail.state === 'running' && detail.tables.length === 1 && detail.playersLeft >= 2;
  const mine = deal?.players.find((p) => p.account === account);
  return (
    <div className="tournament-actions" data-testid="tournament-actions">
      {offers.map((offer) => (
        <button
          key={offer.op}
          type="button"
          disabled={busy}
          data-testid={offer.op}
          onClick={() => void act(offer.op)}
        >
          {offer.label} {formatMoney(offer.cost, detail.currency)} + {formatMoney(offer.fee, detail.currency)}{' '}
          for {formatChips(offer.chips)} chips
        </button>
      ))}
      {finalTable && deal === null && me?.rank != null ? (
        <span className="deal-propose">
          Deal:{' '}
          <button
            type="button"
            disabled={busy}
            onClick={() => void act('tournament-deal-propose', { kind: 'icm' })}
          >
            Propose ICM
          </button>{' '}
          <button
            type="button"
            disabled={busy}
            onClick={() => void act('tournament-deal-propose', { kind: 'chip-chop' })}
          >
            Propose chip chop
          </button>
        </span>
      ) : null}
      {deal === null ? null : (
        <div className="deal" role="region" aria-label="Deal" data-testid="deal">
          <b>{deal.kind === 'icm' ? 'ICM deal' : 'Chip chop'} proposed</b>
          {deal.expiresAt === null ? (
            <span className="meta"> · worked out when this hand ends</span>
          ) : (
            <span className="meta"> · {clockText(deal.expiresAt - now)} to answer</span>
          )}
          <table>
            <tbody>
              {deal.players.map((p) => (
                <tr key={p.account}>
                  <td>{p.name}</td>
                  <td className="num">{formatChips(p.chips)}</td>
                  <td className="num">{p.amount === null ? '—' : formatMoney(p.amount, detail.currency)}</td>
                  <td>{p.accepted ? 'accepts' : 'to answer'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {mine !== undefined && !mine.accepted ? (
            <span>
              <button
                type="button"
                className="primary"
                disabled={busy || mine.amount === null}
                onClick={() => void act('tournament-deal-accept')}
              >
                Accept
              </button>{' '}
              <button
                type="button"
                className="danger"
                disabled={busy}
                onClick={() => void act('tournament-deal-decline')}
              >
                Decline
              </button>
            </span>
          ) : null}
        </div>
      )}
      {refusal === null ? null : (
        <p className="refusal" role="alert" data-testid="tournament-action-refusal">
          {refusal}
        </p>
      )}
    </div>
  );
}
