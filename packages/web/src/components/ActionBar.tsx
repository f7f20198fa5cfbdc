import type { WireHandAction } from '@felt/protocol';
import { useCallback, useEffect, useState } from 'react';
import { amountText, formatMoney, parseMoney } from '../format';
import { useNow, useStore } from '../hooks';
import type { BlindRequestView, LegalView, TableView } from '../net/views';
import type { TableState } from '../state/table';
import { CardRow } from './Card';
import { ClockBar, toWire } from './Table';

type Advance = 'check-fold' | 'check' | 'call-any' | 'fold' | null;

/**
 * The seated player's controls: the decision when it is his turn (only what the engine's legal actions
 * allow, with its amounts), advance actions while he waits, and his seat (sit out, blinds, leave).
 * Keyboard: F fold · C check/call · B bring-in · R bet/raise · A all-in · P pot · H half pot · D draw ·
 * S show · M muck.
 */
export function ActionBar({
  table,
  view,
  fourColour,
}: {
  table: TableState;
  view: TableView;
  fourColour: boolean;
}) {
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
  const blindRequest = view.blindRequest;
  return (
    <div className="action-bar" aria-label="Your actions" role="region">
      {blindRequest !== null && blindRequest.seat === view.you ? (
        <PostBlind view={view} request={blindRequest} />
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
          fourColour={fourColour}
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
          {seat.status === 'sitting-out' ? (
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
          <SeatOption
            label="Auto-post blinds"
            checked={seat.autoPost}
            set={(on) => store.autoPost(view.tableId, on)}
          />
          <SeatOption
            label="Muck losing hands"
            checked={seat.muckLosing}
            set={(on) => store.muckLosing(view.tableId, on)}
          />
          {inHand ? null : (
            <button
              type="button"
              onClick={() => {
                void store.rebuy(view.tableId, view.minBuyIn);
              }}
            >
              Add {formatMoney(view.minBuyIn, view.currency)} chips
            </button>
          )}
          <button
            type="button"
            className="danger"
            onClick={() => {
              void store.leaveSeat(view.tableId);
            }}
          >
            Leave seat
          </button>
        </div>
      )}
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
  fourColour,
  send,
}: {
  view: TableView;
  legal: LegalView;
  cards: readonly string[];
  bet: number;
  stack: number;
  fourColour: boolean;
  send: (action: WireHandAction) => void;
}) {
  const hand = view.hand;
  const currency = view.currency;
  const raise = legal.raise;
  const [amount, setAmount] = useState(raise?.min ?? 0);
  const [text, setText] = useState(amountText(raise?.min ?? 0));
  const [discards, setDiscards] = useState<ReadonlySet<number>>(new Set());
  useEffect(() => {
    setAmount(raise?.min ?? 0);
    setText(amountText(raise?.min ?? 0));
    setDiscards(new Set());
  }, [raise?.min, raise?.max, legal.discard, currency]);

  const choose = useCallback(
    (to: number) => {
      if (raise === null) return;
      const clamped = Math.max(raise.min, Math.min(raise.max, Math.round(to)));
      setAmount(clamped);
      setText(amountText(clamped));
    },
    [raise, currency],
  );

  const currentBet = hand?.currentBet ?? 0;
  const betKind: 'bet' | 'raise' | 'complete' =
    legal.bringIn !== null ? 'complete' : currentBet === 0 ? 'bet' : 'raise';
  const betLabel = betKind === 'complete' ? 'Complete to' : betKind === 'bet' ? 'Bet' : 'Raise to';
  const sizable =
    view.structure === 'no-limit' || view.structure === 'pot-limit' || view.structure === 'half-pot-limit';
  // Pot-sized raise: call, then raise by the pot after the call (only a suggestion: the box is clamped to
  // the engine's min and max, and the server checks the amount).
  const inPot = hand === null ? 0 : hand.players.reduce((sum, p) => sum + p.committed, 0);
  const toCall = legal.call ?? 0;
  const potTo = currentBet + inPot + toCall;
  const halfPotTo = currentBet + Math.floor((inPot + toCall) / 2);
  const allInTo = bet + stack;

  const onKey = useCallback(
    (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (
        target !== null &&
        (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')
      )
        return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const key = event.key.toLowerCase();
      if (legal.discard !== null) {
        if (key === 'd') send(discardAction(cards, discards));
        return;
      }
      if (key === 'f' && legal.fold) send({ type: 'fold' });
      else if (key === 'c' && legal.check) send({ type: 'check' });
      else if (key === 'c' && legal.call !== null) send({ type: 'call' });
      else if (key === 'b' && legal.bringIn !== null) send({ type: 'bring-in' });
      else if (key === 'r' && raise !== null) send({ type: betKind, to: amount });
      else if (key === 'a' && raise !== null) choose(raise.max);
      else if (key === 'p' && raise !== null && sizable) choose(potTo);
      else if (key === 'h' && raise !== null && sizable) choose(halfPotTo);
    },
    [legal, raise, amount, betKind, cards, discards, send, choose, sizable, potTo, halfPotTo],
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
          cards={toWire(cards)}
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
              value={amount}
              onChange={(event) => {
                choose(Number(event.target.value));
              }}
            />
          </span>
          <input
            type="text"
            inputMode="decimal"
            aria-label={`${betLabel} amount (type)`}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              const parsed = parseMoney(event.target.value);
              if (parsed !== null) setAmount(Math.max(raise.min, Math.min(raise.max, parsed)));
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter') send({ type: betKind, to: amount });
            }}
          />
          {sizable ? (
            <>
              <button
                type="button"
                onClick={() => {
                  choose(halfPotTo);
                }}
              >
                ½ Pot<kbd>H</kbd>
              </button>
              <button
                type="button"
                onClick={() => {
                  choose(potTo);
                }}
              >
                Pot<kbd>P</kbd>
              </button>
            </>
          ) : null}
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
            onClick={() => {
              send({ type: betKind, to: amount });
            }}
          >
            {betLabel} {formatMoney(amount, currency)}
            <kbd>R</kbd>
          </button>
        </>
      )}
    </div>
  );
}

function discardAction(cards: readonly string[], picked: ReadonlySet<number>): WireHandAction {
  const chosen = cards.filter((_, index) => picked.has(index));
  if (chosen.length === 0) return { type: 'stand-pat' };
  return { type: 'discard', cards: chosen };
}
