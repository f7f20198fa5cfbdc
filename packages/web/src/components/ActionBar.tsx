import { potSizedBets } from '@felt/engine/browser';
import { betSizeLabel, betSizeTo, DEFAULT_BET_SIZES, parseBetSizes } from '../bet-sizes';
import type { WireHandAction } from '@felt/protocol';
import { useCallback, useEffect, useState } from 'react';
import { amountText, formatMoney, hasBlinds, parseMoney, type TableCurrency } from '../format';
import { hotkey, type ArmedKey } from '../hotkeys';
import { useNow, useStore } from '../hooks';
import type { BlindRequestView, LegalView, TableView } from '../net/views';
import type { Prefs } from '../state/store';
import type { TableModel } from '../state/table';
import { CardRow } from './Card';
import { ClockBar } from './Table';
import { tournamentOfTable } from '../tournament';

type Advance = 'check-fold' | 'check' | 'call-any' | 'fold' | null;

/**
 * The seated player's controls: the decision when it is his turn (only what the engine's legal actions
 * allow, with its amounts), advance actions while he waits, and his seat (sit out, blinds, leave).
 * Keyboard (../hotkeys.ts, docs/web.md): F fold · C check/call · B bring-in · R bet/raise · A all-in ·
 * P pot · H half pot · D draw; a key that puts chips in needs Shift or a second press.
 */
export function ActionBar({ table, view, prefs }: { table: TableModel; view: TableView; prefs: Prefs }) {
  const store = useStore();
  const legal = table.legal;
  const hand = view.hand;
  const me = view.you === null ? null : (hand?.players.find((p) => p.seat === view.you) ?? null);
  const seat = view.you === null ? null : (view.seats[view.you] ?? null);
  const [advance, setAdvance] = useState<Advance>(null);
  const send = useCallback(
    (action: WireHandAction) => {
      setAdvance(null);
      void store.act(view.tableId, action);
    },
    [store, view.tableId],
  );

  // Advance actions fire as soon as the legal actions arrive.
  useEffect(() => {
    if (legal === null || advance === null || legal.discard !== null || legal.split) return;
    if (advance === 'check-fold') send(legal.check ? { type: 'check' } : { type: 'fold' });
    else if (advance === 'check') {
      if (legal.check) send({ type: 'check' });
      else setAdvance(null);
    } else if (advance === 'call-any')
      send(legal.check ? { type: 'check' } : legal.call !== null ? { type: 'call' } : { type: 'fold' });
    else send(legal.check ? { type: 'check' } : { type: 'fold' });
  }, [legal, advance, send]);

  // A new hand clears advance actions.
  const handId = hand?.handId ?? null;
  useEffect(() => {
    setAdvance(null);
  }, [handId]);

  const inHand = me !== null && !me.folded && !me.allIn && hand !== null && hand.phase !== 'done';
  // The room seats tournament players: no chips added, no seat left; everyone is dealt in, blinds forced.
  const tournament = tournamentOfTable(view.tableId) !== null;
  const blindRequest = view.blindRequest;
  return (
    <div className="action-bar" aria-label="Your actions" role="region">
      {blindRequest !== null && blindRequest.seat === view.you ? (
        <PostBlind view={view} request={blindRequest} />
      ) : null}
      {hand?.runTwice != null &&
      view.you !== null &&
      hand.runTwice.seats.includes(view.you) &&
      !hand.runTwice.accepted.includes(view.you) ? (
        <RunTwiceOffer tableId={view.tableId} deadline={hand.runTwice.deadline} />
      ) : null}
      {legal !== null && table.clock !== null && table.clock.seat === view.you ? (
        <ClockBar clock={table.clock} />
      ) : null}
      {legal !== null && me !== null ? (
        <Decision
          view={view}
          legal={legal}
          cards={me.cards}
          bet={me.bet}
          stack={me.stack}
          prefs={prefs}
          send={send}
        />
      ) : inHand ? (
        <div className="action-row" role="group" aria-label="Advance actions">
          <span className="meta">
            Waiting for{' '}
            {view.hand?.actor == null ? 'the deal' : (view.seats[view.hand.actor]?.name ?? 'the next player')}
            …
          </span>
          {(
            [
              ['check-fold', 'Check/Fold'],
              ['check', 'Check'],
              ['call-any', 'Call any'],
              ['fold', 'Fold'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="inline">
              <input
                type="checkbox"
                checked={advance === value}
                onChange={(event) => {
                  setAdvance(event.target.checked ? value : null);
                }}
              />{' '}
              {label}
            </label>
          ))}
        </div>
      ) : null}
      {seat === null ? null : (
        <div className="seat-controls" role="group" aria-label="Your seat">
          {seat.status === 'waiting' || seat.missed.big || seat.missed.small ? (
            <>
              <button
                type="button"
                onClick={() => {
                  void store.missedBlinds(view.tableId, 'post');
                }}
              >
                Post blinds now
              </button>
              <button
                type="button"
                onClick={() => {
                  void store.missedBlinds(view.tableId, 'wait');
                }}
              >
                Wait for the big blind
              </button>
            </>
          ) : null}
          {tournament ? null : seat.status === 'sitting-out' ? (
            <button
              type="button"
              onClick={() => {
                void store.sitIn(view.tableId);
              }}
            >
              I'm back
            </button>
          ) : (
            <button
              type="button"
              onClick={() => {
                void store.sitOut(view.tableId);
              }}
            >
              Sit out next hand
            </button>
          )}
          {hasBlinds(view.game) && !tournament ? (
            <SeatOption
              label="Auto-post blinds"
              checked={seat.autoPost}
              set={(on) => store.autoPost(view.tableId, on)}
            />
          ) : null}
          <SeatOption
            label="Muck losing hands"
            checked={seat.muckLosing}
            set={(on) => store.muckLosing(view.tableId, on)}
          />
          {inHand || tournament ? null : (
            <button
              type="button"
              onClick={() => {
                void store.rebuy(view.tableId, view.minBuyIn);
              }}
            >
              Add {formatMoney(view.minBuyIn, view.currency)} chips
            </button>
          )}
          {tournament ? null : (
            <button
              type="button"
              className="danger"
              onClick={() => {
                void store.leaveSeat(view.tableId);
              }}
            >
              Leave seat
            </button>
          )}
        </div>
      )}
    </div>
  );
}

/** All in with board cards to come at a table that offers it: run it twice, or once (also when the time runs out). */
function RunTwiceOffer({ tableId, deadline }: { tableId: string; deadline: number }) {
  const store = useStore();
  const now = useNow(true);
  const seconds = Math.max(0, Math.ceil((deadline - now) / 1000));
  return (
    <div className="action-row" role="group" aria-label="Run it twice">
      <span className="meta">Run it twice? ({seconds} s)</span>
      {(
        [
          [true, 'Run it twice'],
          [false, 'Run once'],
        ] as const
      ).map(([accept, label]) => (
        <button
          key={label}
          type="button"
          onClick={() => {
            void store.runTwice(tableId, accept);
          }}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

/** Auto-post is off and the table waits for his blind: post it, or sit out (also when the time runs out). */
function PostBlind({ view, request }: { view: TableView; request: BlindRequestView }) {
  const store = useStore();
  const now = useNow(true);
  const seconds = Math.max(0, Math.ceil((request.deadline - now) / 1000));
  const dead = request.dead > 0 ? ` + ${formatMoney(request.dead, view.currency)} dead` : '';
  return (
    <div className="action-row" role="group" aria-label="Post your blind">
      <span className="meta">
        Your blind: {formatMoney(request.blind, view.currency)}
        {dead} ({seconds} s)
      </span>
      {(
        [
          [true, 'Post blind'],
          [false, 'Sit out'],
        ] as const
      ).map(([post, label]) => (
        <button
          key={label}
          type="button"
          onClick={() => {
            void store.postBlind(view.tableId, post);
          }}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

/** A seat's option as the server holds it: the box shows the server's view, a click asks for the change. */
function SeatOption({
  label,
  checked,
  set,
}: {
  label: string;
  checked: boolean;
  set: (on: boolean) => Promise<void>;
}) {
  return (
    <label className="inline">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => {
          void set(event.target.checked);
        }}
      />{' '}
      {label}
    </label>
  );
}

function Decision({
  view,
  legal,
  cards,
  bet,
  stack,
  prefs,
  send,
}: {
  view: TableView;
  legal: LegalView;
  cards: readonly string[];
  bet: number;
  stack: number;
  prefs: Prefs;
  send: (action: WireHandAction) => void;
}) {
  const fourColour = prefs.fourColour;
  const hand = view.hand;
  const currency = view.currency;
  const raise = legal.raise;
  // null while the box holds no amount in range: nothing is sent rather than an amount typed before.
  const [amount, setAmount] = useState<number | null>(raise?.min ?? 0);
  const [armed, setArmed] = useState<{ key: ArmedKey; prompt: string } | null>(null);
  const [text, setText] = useState(amountText(raise?.min ?? 0, currency));
  const [discards, setDiscards] = useState<ReadonlySet<number>>(new Set());
  useEffect(() => {
    setAmount(raise?.min ?? 0);
    setText(amountText(raise?.min ?? 0, currency));
    setDiscards(new Set());
  }, [raise?.min, raise?.max, legal.discard, currency]);
  // A new decision starts with no key armed.
  useEffect(() => {
    setArmed(null);
  }, [legal]);

  const choose = useCallback(
    (to: number) => {
      if (raise === null) return;
      const clamped = Math.max(raise.min, Math.min(raise.max, Math.round(to)));
      setAmount(clamped);
      setText(amountText(clamped, currency));
    },
    [raise, currency],
  );

  const currentBet = hand?.currentBet ?? 0;
  const betKind: 'bet' | 'raise' | 'complete' =
    legal.bringIn !== null ? 'complete' : currentBet === 0 ? 'bet' : 'raise';
  const betLabel = betKind === 'complete' ? 'Complete to' : betKind === 'bet' ? 'Bet' : 'Raise to';
  const sizable =
    view.structure === 'no-limit' || view.structure === 'pot-limit' || view.structure === 'half-pot-limit';
  // Only suggestions: the box is clamped to the engine's min and max, and the server checks the amount.
  const inPot = hand === null ? 0 : hand.players.reduce((sum, p) => sum + p.committed, 0);
  const { pot: potTo, halfPot: halfPotTo } = potSizedBets(inPot, currentBet, legal.call ?? 0);
  const allInTo = bet + stack;
  const betSizes = parseBetSizes(prefs.betSizes) ?? parseBetSizes(DEFAULT_BET_SIZES)!;

  const onKey = useCallback(
    (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (
        target !== null &&
        (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')
      )
        return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const result = hotkey(event.key, event.shiftKey, {
        legal,
        prefs,
        armed: armed?.key ?? null,
        raiseAction: raise === null || amount === null ? null : { type: betKind, to: amount },
        drawAction: discardAction(cards, discards),
        money: (chips) => formatMoney(chips, currency),
      });
      setArmed(result.kind === 'arm' ? { key: result.key, prompt: result.prompt } : null);
      if (result.kind === 'send') send(result.action);
      else if (result.kind === 'size' && raise !== null) {
        if (result.key === 'a') choose(raise.max);
        else if (sizable) choose(result.key === 'p' ? potTo : halfPotTo);
      }
    },
    [
      legal,
      prefs,
      armed,
      raise,
      amount,
      betKind,
      cards,
      discards,
      send,
      choose,
      sizable,
      potTo,
      halfPotTo,
      currency,
    ],
  );
  useEffect(() => {
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
    };
  }, [onKey]);

  if (legal.discard !== null) {
    const max = legal.discard;
    return (
      <div className="action-row" role="group" aria-label="Draw">
        <span>
          {max === 0 ? 'You must stand pat.' : `Click up to ${max} card${max === 1 ? '' : 's'} to discard.`}
        </span>
        <CardRow
          cards={cards}
          height={72}
          fourColour={fourColour}
          label="Your cards: pick discards"
          selected={discards}
          onToggle={(index) => {
            const next = new Set(discards);
            if (next.has(index)) next.delete(index);
            else if (next.size < max) next.add(index);
            setDiscards(next);
          }}
        />
        <button
          type="button"
          className="primary"
          onClick={() => {
            send(discardAction(cards, discards));
          }}
        >
          {discards.size === 0 ? 'Stand pat' : `Discard ${discards.size}`}
          <kbd>D</kbd>
        </button>
      </div>
    );
  }

  if (legal.split) {
    return (
      <div className="action-row" role="group" aria-label="Split offer">
        <span>Split the pot now?</span>
        <button
          type="button"
          className="primary"
          onClick={() => {
            send({ type: 'split', accept: true });
          }}
        >
          Split
        </button>
        <button
          type="button"
          onClick={() => {
            send({ type: 'split', accept: false });
          }}
        >
          Play on
        </button>
      </div>
    );
  }

  return (
    <div className="action-row" role="group" aria-label="Betting">
      {armed === null ? null : (
        <span className="armed" role="status" data-testid="hotkey-prompt">
          {armed.prompt}
        </span>
      )}
      {legal.fold ? (
        <button
          type="button"
          className="danger"
          onClick={() => {
            send({ type: 'fold' });
          }}
        >
          Fold<kbd>F</kbd>
        </button>
      ) : null}
      {legal.check ? (
        <button
          type="button"
          onClick={() => {
            send({ type: 'check' });
          }}
        >
          Check<kbd>C</kbd>
        </button>
      ) : null}
      {legal.call !== null ? (
        <button
          type="button"
          onClick={() => {
            send({ type: 'call' });
          }}
        >
          Call {formatMoney(legal.call, currency)}
          <kbd>C</kbd>
        </button>
      ) : null}
      {legal.bringIn !== null ? (
        <button
          type="button"
          onClick={() => {
            send({ type: 'bring-in' });
          }}
        >
          Bring in {formatMoney(legal.bringIn, currency)}
          <kbd>B</kbd>
        </button>
      ) : null}
      {raise === null ? null : legal.raiseTos !== null && legal.raiseTos.length > 0 ? (
        legal.raiseTos.map((to: number) => (
          <button
            key={to}
            type="button"
            className="primary"
            onClick={() => {
              send({ type: betKind, to });
            }}
          >
            {betLabel} {formatMoney(to, currency)}
          </button>
        ))
      ) : raise.min === raise.max ? (
        <button
          type="button"
          className="primary"
          onClick={() => {
            send({ type: betKind, to: raise.min });
          }}
        >
          {betLabel} {formatMoney(raise.min, currency)}
          <kbd>R</kbd>
        </button>
      ) : (
        <>
          <span className="grow">
            <input
              type="range"
              aria-label={`${betLabel} amount`}
              min={raise.min}
              max={raise.max}
              value={amount ?? raise.min}
              onChange={(event) => {
                choose(Number(event.target.value));
              }}
            />
          </span>
          <input
            type="text"
            inputMode="decimal"
            aria-label={`${betLabel} amount (type)`}
            aria-invalid={amount === null}
            title={`${formatMoney(raise.min, currency)} – ${formatMoney(raise.max, currency)}`}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setAmount(typedAmount(event.target.value, raise, currency));
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && amount !== null) send({ type: betKind, to: amount });
            }}
          />
          {sizable
            ? betSizes.map((size) => {
                const to = betSizeTo(size, { pot: inPot, currentBet, call: legal.call ?? 0 });
                if (to === null) return null;
                const label = betSizeLabel(size);
                return (
                  <button
                    key={label}
                    type="button"
                    title={formatMoney(Math.max(raise.min, Math.min(raise.max, to)), currency)}
                    onClick={() => {
                      choose(to);
                    }}
                  >
                    {label}
                    {to === potTo ? (
                      <kbd>P</kbd>
                    ) : to === halfPotTo && size.kind === 'pot' ? (
                      <kbd>H</kbd>
                    ) : null}
                  </button>
                );
              })
            : null}
          {raise.max === allInTo ? (
            <button
              type="button"
              onClick={() => {
                choose(raise.max);
              }}
            >
              All in<kbd>A</kbd>
            </button>
          ) : null}
          <button
            type="button"
            className="primary"
            disabled={amount === null}
            onClick={() => {
              if (amount !== null) send({ type: betKind, to: amount });
            }}
          >
            {betLabel}{' '}
            {amount === null
              ? `${formatMoney(raise.min, currency)} – ${formatMoney(raise.max, currency)}`
              : formatMoney(amount, currency)}
            <kbd>R</kbd>
          </button>
        </>
      )}
    </div>
  );
}

/** What the player typed, if it is an amount the engine allows, else null. */
export function typedAmount(
  text: string,
  raise: { readonly min: number; readonly max: number },
  currency: TableCurrency,
): number | null {
  const parsed = parseMoney(text, currency);
  return parsed === null || parsed < raise.min || parsed > raise.max ? null : parsed;
}

function discardAction(cards: readonly string[], picked: ReadonlySet<number>): WireHandAction {
  const chosen = cards.filter((_, index) => picked.has(index));
  if (chosen.length === 0) return { type: 'stand-pat' };
  return { type: 'discard', cards: chosen };
}
