import type { HandHistoryPayload, HandListItem } from '@felt/protocol';
import { useEffect, useState } from 'react';
import { formatMoney } from '../format';
import { useStore } from '../hooks';
import { replayFrames, type ReplayFrame } from '../replay';
import { CardRow } from './Card';
import { toWire } from './Table';

/** The player's own finished hands: the text history and a replayer that steps through the hand. */
export function History({ tableId }: { tableId: string }) {
  const store = useStore();
  const [open, setOpen] = useState(false);
  const [hands, setHands] = useState<readonly HandListItem[]>([]);
  const [hand, setHand] = useState<HandHistoryPayload | null>(null);
  useEffect(() => {
    if (!open) return;
    void store.historyList().then((list) => {
      setHands(list.filter((item) => item.tableId === tableId));
    });
  }, [open, store, tableId]);
  return (
    <div className="panel">
      <h3>
        <button
          type="button"
          className="link"
          aria-expanded={open}
          onClick={() => {
            setOpen(!open);
            setHand(null);
          }}
        >
          Hand history
        </button>
      </h3>
      {open ? (
        <>
          {hands.length === 0 ? <p className="meta">No finished hands yet.</p> : null}
          <ul className="log">
            {hands.map((item) => (
              <li key={item.handId}>
                <button
                  type="button"
                  className="link"
                  onClick={() => {
                    void store.historyFetch(item.handId).then(setHand);
                  }}
                >
                  #{item.handId} {item.description} ({item.net >= 0 ? '+' : ''}
                  {formatMoney(item.net, item.currency)})
                </button>
              </li>
            ))}
          </ul>
          {hand === null ? null : <Replayer hand={hand} />}
        </>
      ) : null}
    </div>
  );
}

export function Replayer({ hand }: { hand: HandHistoryPayload }) {
  const [frames] = useState<ReplayFrame[]>(() => replayFrames(hand.phh));
  const [step, setStep] = useState(0);
  const frame = frames[Math.min(step, frames.length - 1)];
  if (frame === undefined) return null;
  return (
    <div className="replayer" aria-label={`Replay of hand ${hand.handId}`} role="region">
      <div className="controls">
        <button
          type="button"
          aria-label="First step"
          onClick={() => {
            setStep(0);
          }}
        >
          ⏮
        </button>
        <button
          type="button"
          aria-label="Previous step"
          onClick={() => {
            setStep(Math.max(0, step - 1));
          }}
        >
          ◀
        </button>
        <span aria-live="polite">
          {step + 1}/{frames.length}: {frame.line}
        </span>
        <button
          type="button"
          aria-label="Next step"
          onClick={() => {
            setStep(Math.min(frames.length - 1, step + 1));
          }}
        >
          ▶
        </button>
        <button
          type="button"
          aria-label="Last step"
          onClick={() => {
            setStep(frames.length - 1);
          }}
        >
          ⏭
        </button>
      </div>
      {frame.board.length > 0 ? <CardRow cards={toWire(frame.board)} height={40} label="Board" /> : null}
      <ul className="log">
        {frame.players.map((player, index) => (
          <li key={index} style={player.folded ? { opacity: 0.55 } : undefined}>
            {player.name}: {player.stack}
            {player.bet > 0 ? ` (bet ${player.bet})` : ''}{' '}
            <CardRow cards={toWire(player.cards)} height={32} label={`${player.name}'s cards`} />
          </li>
        ))}
      </ul>
      <p>Pot {frame.pot}</p>
      <details>
        <summary>Text</summary>
        <pre style={{ whiteSpace: 'pre-wrap', fontSize: '0.8rem' }}>{hand.text}</pre>
      </details>
    </div>
  );
}
